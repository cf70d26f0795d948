// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let scanSARIF = ##"""
{
  "$schema" : "https://json.schemastore.org/sarif-2.1.0.json",
  "runs" : [
    {
      "automationDetails" : {
        "id" : "canarytrap/canary-scan"
      },
      "invocations" : [
        {
          "executionSuccessful" : true
        }
      ],
      "properties" : {
        "summary" : "LEAKY: 3 leaks at 2 locations",
        "title" : "canary scan",
        "verdict" : "leaky"
      },
      "results" : [
        {
          "level" : "error",
          "locations" : [
            {
              "logicalLocations" : [
                {
                  "fullyQualifiedName" : "request.header[X-Session]",
                  "kind" : "member",
                  "name" : "X-Session"
                },
                {
                  "fullyQualifiedName" : "logs/app.log",
                  "kind" : "resource"
                }
              ],
              "physicalLocation" : {
                "artifactLocation" : {
                  "uri" : "logs/app.log"
                },
                "region" : {
                  "startColumn" : 17,
                  "startLine" : 3
                }
              }
            }
          ],
          "message" : {
            "text" : "canary planted in request.header[X-Session] leaked into logs/app.log, base64-encoded, at line 3 col 17: \"auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42\""
          },
          "partialFingerprints" : {
            "canaryLeak/v1" : "5c9e98d4bad9daa8"
          },
          "properties" : {
            "canaryLocation" : "request.header[X-Session]",
            "canaryShape" : "token",
            "encoding" : "base64",
            "excerpt" : "auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42",
            "source" : "logs/app.log",
            "sourceColumn" : 17,
            "sourceLine" : 3
          },
          "ruleId" : "canary-leak/request.header/base64",
          "ruleIndex" : 0
        },
        {
          "level" : "error",
          "locations" : [
            {
              "logicalLocations" : [
                {
                  "fullyQualifiedName" : "request.header[X-Session]",
                  "kind" : "member",
                  "name" : "X-Session"
                },
                {
                  "fullyQualifiedName" : "logs/app.log",
                  "kind" : "resource"
                }
              ],
              "physicalLocation" : {
                "artifactLocation" : {
                  "uri" : "logs/app.log"
                },
                "region" : {
                  "startColumn" : 2,
                  "startLine" : 9
                }
              }
            }
          ],
          "message" : {
            "text" : "canary planted in request.header[X-Session] leaked into logs/app.log, base64-encoded, at line 9 col 2: \"retry auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE=\""
          },
          "partialFingerprints" : {
            "canaryLeak/v1" : "5c9e98d4bad9daa8:2"
          },
          "properties" : {
            "canaryLocation" : "request.header[X-Session]",
            "canaryShape" : "token",
            "encoding" : "base64",
            "excerpt" : "retry auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE=",
            "source" : "logs/app.log",
            "sourceColumn" : 2,
            "sourceLine" : 9
          },
          "ruleId" : "canary-leak/request.header/base64",
          "ruleIndex" : 0
        },
        {
          "level" : "error",
          "locations" : [
            {
              "logicalLocations" : [
                {
                  "fullyQualifiedName" : "request.body.json[user.password]",
                  "kind" : "member",
                  "name" : "user.password"
                },
                {
                  "fullyQualifiedName" : "logs/app 2.log",
                  "kind" : "resource"
                }
              ],
              "physicalLocation" : {
                "artifactLocation" : {
                  "uri" : "logs/app%202.log"
                },
                "region" : {
                  "startColumn" : 5,
                  "startLine" : 1
                }
              }
            }
          ],
          "message" : {
            "text" : "canary planted in request.body.json[user.password] leaked into logs/app 2.log, hashed (sha256-hex), at line 1 col 5: \"pw=5e884898da28047151d0e56f8dc6292773603d0d\""
          },
          "partialFingerprints" : {
            "canaryLeak/v1" : "58d14bb339cc757e"
          },
          "properties" : {
            "canaryLocation" : "request.body.json[user.password]",
            "canaryShape" : "password",
            "encoding" : "sha256-hex",
            "excerpt" : "pw=5e884898da28047151d0e56f8dc6292773603d0d",
            "source" : "logs/app 2.log",
            "sourceColumn" : 5,
            "sourceLine" : 1
          },
          "ruleId" : "canary-leak/request.body.json/sha256-hex",
          "ruleIndex" : 1
        }
      ],
      "tool" : {
        "driver" : {
          "name" : "CanaryTrap",
          "rules" : [
            {
              "defaultConfiguration" : {
                "level" : "error"
              },
              "fullDescription" : {
                "text" : "A canary (a unique fake secret) planted in request.header was found base64-encoded in a log, file or other sink the app writes to; a real secret there would leak the same way."
              },
              "help" : {
                "text" : "Redact or drop values from request.header before they reach logs, caches or exports, then run the CanaryTrap test again."
              },
              "id" : "canary-leak/request.header/base64",
              "name" : "CanaryLeak",
              "properties" : {
                "precision" : "very-high",
                "problem.severity" : "error",
                "security-severity" : "7.5",
                "tags" : [
                  "security",
                  "secret-leak",
                  "canary-trap"
                ]
              },
              "shortDescription" : {
                "text" : "Secret from request.header leaks base64-encoded"
              }
            },
            {
              "defaultConfiguration" : {
                "level" : "error"
              },
              "fullDescription" : {
                "text" : "A canary (a unique fake secret) planted in request.body.json was found hashed (sha256-hex) in a log, file or other sink the app writes to; a real secret there would leak the same way."
              },
              "help" : {
                "text" : "Redact or drop values from request.body.json before they reach logs, caches or exports, then run the CanaryTrap test again."
              },
              "id" : "canary-leak/request.body.json/sha256-hex",
              "name" : "CanaryLeak",
              "properties" : {
                "precision" : "very-high",
                "problem.severity" : "error",
                "security-severity" : "7.5",
                "tags" : [
                  "security",
                  "secret-leak",
                  "canary-trap"
                ]
              },
              "shortDescription" : {
                "text" : "Secret from request.body.json leaks hashed (sha256-hex)"
              }
            }
          ],
          "version" : "1.0.0"
        }
      }
    }
  ],
  "version" : "2.1.0"
}
"""##
}
