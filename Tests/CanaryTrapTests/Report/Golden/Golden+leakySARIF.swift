// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let leakySARIF = ##"""
{
  "$schema" : "https://json.schemastore.org/sarif-2.1.0.json",
  "runs" : [
    {
      "automationDetails" : {
        "id" : "canarytrap/SignInLeakTests.signIn--"
      },
      "invocations" : [
        {
          "executionSuccessful" : false,
          "toolExecutionNotifications" : [
            {
              "descriptor" : {
                "id" : "canary-undelivered"
              },
              "level" : "warning",
              "message" : {
                "text" : "canary planted in response.cookie[sid] was never delivered (the app never received the Set-Cookie header), so this run cannot show whether it would leak"
              }
            },
            {
              "descriptor" : {
                "id" : "canary-source-silent"
              },
              "level" : "warning",
              "message" : {
                "text" : "stderr heard nothing of this run (no bytes written), so a leak there would go unseen"
              }
            }
          ]
        }
      ],
      "properties" : {
        "summary" : "LEAKY: 3 leaks at 2 locations",
        "title" : "SignInLeakTests.signIn()",
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
                  "fullyQualifiedName" : "app.log",
                  "kind" : "resource"
                }
              ],
              "physicalLocation" : {
                "artifactLocation" : {
                  "uri" : "Tests/AppTests/SignInLeakTests.swift"
                },
                "region" : {
                  "startColumn" : 4,
                  "startLine" : 12
                }
              }
            }
          ],
          "message" : {
            "text" : "canary planted in request.header[X-Session] leaked into app.log, base64-encoded, at line 3 col 17: \"auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42\""
          },
          "partialFingerprints" : {
            "canaryLeak/v1" : "a0bdac53ff8dc902"
          },
          "properties" : {
            "canaryLocation" : "request.header[X-Session]",
            "canaryShape" : "token",
            "encoding" : "base64",
            "excerpt" : "auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42",
            "source" : "app.log",
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
                  "fullyQualifiedName" : "request.body.json[user.password]",
                  "kind" : "member",
                  "name" : "user.password"
                },
                {
                  "fullyQualifiedName" : "app.log",
                  "kind" : "resource"
                }
              ],
              "physicalLocation" : {
                "artifactLocation" : {
                  "uri" : "Tests/AppTests/SignInLeakTests.swift"
                },
                "region" : {
                  "startColumn" : 4,
                  "startLine" : 12
                }
              }
            }
          ],
          "message" : {
            "text" : "canary planted in request.body.json[user.password] leaked into app.log, percent-encoded, at line 5 col 9: \"body: pw=cnryFIXEDpass0002%21%26\""
          },
          "partialFingerprints" : {
            "canaryLeak/v1" : "115ffec5b2dc97fa"
          },
          "properties" : {
            "canaryLocation" : "request.body.json[user.password]",
            "canaryShape" : "password",
            "encoding" : "percent",
            "excerpt" : "body: pw=cnryFIXEDpass0002%21%26",
            "source" : "app.log",
            "sourceColumn" : 9,
            "sourceLine" : 5
          },
          "ruleId" : "canary-leak/request.body.json/percent",
          "ruleIndex" : 1
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
                  "fullyQualifiedName" : "stdout",
                  "kind" : "resource"
                }
              ],
              "physicalLocation" : {
                "artifactLocation" : {
                  "uri" : "Tests/AppTests/SignInLeakTests.swift"
                },
                "region" : {
                  "startColumn" : 4,
                  "startLine" : 12
                }
              }
            }
          ],
          "message" : {
            "text" : "canary planted in request.header[X-Session] leaked into stdout, in plain text, at line 1 col 1: \"cnryFIXEDsession0001 sent\""
          },
          "partialFingerprints" : {
            "canaryLeak/v1" : "8323f80cfac8a0cd"
          },
          "properties" : {
            "canaryLocation" : "request.header[X-Session]",
            "canaryShape" : "token",
            "encoding" : "raw",
            "excerpt" : "cnryFIXEDsession0001 sent",
            "source" : "stdout",
            "sourceColumn" : 1,
            "sourceLine" : 1
          },
          "ruleId" : "canary-leak/request.header/raw",
          "ruleIndex" : 2
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
                "text" : "A canary (a unique fake secret) planted in request.body.json was found percent-encoded in a log, file or other sink the app writes to; a real secret there would leak the same way."
              },
              "help" : {
                "text" : "Redact or drop values from request.body.json before they reach logs, caches or exports, then run the CanaryTrap test again."
              },
              "id" : "canary-leak/request.body.json/percent",
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
                "text" : "Secret from request.body.json leaks percent-encoded"
              }
            },
            {
              "defaultConfiguration" : {
                "level" : "error"
              },
              "fullDescription" : {
                "text" : "A canary (a unique fake secret) planted in request.header was found in plain text in a log, file or other sink the app writes to; a real secret there would leak the same way."
              },
              "help" : {
                "text" : "Redact or drop values from request.header before they reach logs, caches or exports, then run the CanaryTrap test again."
              },
              "id" : "canary-leak/request.header/raw",
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
                "text" : "Secret from request.header leaks in plain text"
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
