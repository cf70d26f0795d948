// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let leakyJUnit = ##"""
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="CanaryTrap" tests="7" failures="2" errors="2" time="1.250">
  <testsuite name="SignInLeakTests.signIn()" tests="7" failures="2" errors="2" skipped="0" time="1.250" timestamp="2026-01-02T03:04:05" hostname="ci-runner" package="CanaryTrap" id="0">
    <properties>
      <property name="verdict" value="leaky"/>
      <property name="summary" value="LEAKY: 3 leaks at 2 locations"/>
      <property name="sourceLocation" value="Tests/AppTests/SignInLeakTests.swift:12:4"/>
      <property name="file" value="Tests/AppTests/SignInLeakTests.swift"/>
      <property name="line" value="12"/>
    </properties>
    <testcase classname="SignInLeakTests.signIn()" name="request.header[X-Session]" time="0.000">
      <failure type="canary-leak" message="leaked 2 times: app.log (base64), stdout (raw)">canary planted in request.header[X-Session] leaked into app.log, base64-encoded, at line 3 col 17: &quot;auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42&quot;
canary planted in request.header[X-Session] leaked into stdout, in plain text, at line 1 col 1: &quot;cnryFIXEDsession0001 sent&quot;</failure>
    </testcase>
    <testcase classname="SignInLeakTests.signIn()" name="request.body.json[user.password]" time="0.000">
      <failure type="canary-leak" message="leaked 1 time: app.log (percent)">canary planted in request.body.json[user.password] leaked into app.log, percent-encoded, at line 5 col 9: &quot;body: pw=cnryFIXEDpass0002%21%26&quot;</failure>
    </testcase>
    <testcase classname="SignInLeakTests.signIn()" name="response.cookie[sid]" time="0.000">
      <error type="canary-undelivered" message="never delivered: the app never received the Set-Cookie header">canary planted in response.cookie[sid] was never delivered (the app never received the Set-Cookie header), so this run cannot show whether it would leak</error>
    </testcase>
    <testcase classname="SignInLeakTests.signIn()" name="request.url.query[sig]" time="0.000"/>
    <testcase classname="SignInLeakTests.signIn()" name="source: app.log" time="0.000"/>
    <testcase classname="SignInLeakTests.signIn()" name="source: stdout" time="0.000"/>
    <testcase classname="SignInLeakTests.signIn()" name="source: stderr" time="0.000">
      <error type="canary-source-silent" message="silent: no bytes written">stderr heard nothing of this run (no bytes written), so a leak there would go unseen</error>
    </testcase>
    <system-out>LEAKY: 3 leaks at 2 locations</system-out>
    <system-err></system-err>
  </testsuite>
</testsuites>

"""##
}
