// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let inconclusiveJUnit = ##"""
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="CanaryTrap" tests="5" failures="0" errors="3" time="1.250">
  <testsuite name="SignInLeakTests.offline()" tests="5" failures="0" errors="3" skipped="0" time="1.250" timestamp="2026-01-02T03:04:05" hostname="ci-runner" package="CanaryTrap" id="0">
    <properties>
      <property name="verdict" value="inconclusive"/>
      <property name="summary" value="INCONCLUSIVE: 1 canary undelivered, 1 source unreadable, 1 error"/>
    </properties>
    <testcase classname="SignInLeakTests.offline()" name="request.header[X-Session]" time="0.000"/>
    <testcase classname="SignInLeakTests.offline()" name="response.cookie[sid]" time="0.000">
      <error type="canary-undelivered" message="never delivered: no response">canary planted in response.cookie[sid] was never delivered (no response), so this run cannot show whether it would leak</error>
    </testcase>
    <testcase classname="SignInLeakTests.offline()" name="source: app.log" time="0.000"/>
    <testcase classname="SignInLeakTests.offline()" name="source: cache.db" time="0.000">
      <error type="canary-source-failed" message="unreadable: permission denied">cache.db could not be read (permission denied)</error>
    </testcase>
    <testcase classname="SignInLeakTests.offline()" name="run errors" time="0.000">
      <error type="canary-run-error" message="1 error">the run failed: transport threw URLError(-1004)</error>
    </testcase>
    <system-out>INCONCLUSIVE: 1 canary undelivered, 1 source unreadable, 1 error</system-out>
    <system-err></system-err>
  </testsuite>
</testsuites>

"""##
}
