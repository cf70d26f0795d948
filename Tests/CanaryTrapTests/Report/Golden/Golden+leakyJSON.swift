// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let leakyJSON = ##"""
{
  "clean" : false,
  "errors" : [

  ],
  "leaks" : [
    {
      "canary" : {
        "location" : "request.header[X-Session]",
        "shape" : "token",
        "value" : "cnryFIXEDsession0001"
      },
      "column" : 17,
      "encoding" : "base64",
      "excerpt" : "auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42",
      "line" : 3,
      "offset" : 120,
      "source" : "app.log"
    },
    {
      "canary" : {
        "location" : "request.body.json[user.password]",
        "shape" : "password",
        "value" : "cnryFIXEDpass0002!&"
      },
      "column" : 9,
      "encoding" : "percent",
      "excerpt" : "body: pw=cnryFIXEDpass0002%21%26",
      "line" : 5,
      "offset" : 201,
      "source" : "app.log"
    },
    {
      "canary" : {
        "location" : "request.header[X-Session]",
        "shape" : "token",
        "value" : "cnryFIXEDsession0001"
      },
      "column" : 1,
      "encoding" : "raw",
      "excerpt" : "cnryFIXEDsession0001 sent",
      "line" : 1,
      "offset" : 0,
      "source" : "stdout"
    }
  ],
  "sources" : [
    {
      "bytes" : 512,
      "name" : "app.log",
      "status" : "heard"
    },
    {
      "bytes" : 128,
      "name" : "stdout",
      "status" : "heard"
    },
    {
      "bytes" : 0,
      "name" : "stderr",
      "reason" : "no bytes written",
      "status" : "silent"
    }
  ],
  "title" : "SignInLeakTests.signIn()",
  "undelivered" : [
    {
      "canary" : {
        "location" : "response.cookie[sid]",
        "shape" : "token",
        "value" : "cnryFIXEDcookie0003"
      },
      "reason" : "the app never received the Set-Cookie header"
    }
  ],
  "verdict" : "leaky"
}
"""##
}
