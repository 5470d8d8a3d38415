/// Scenario results as JUnit XML, the format CI viewers (GitLab, Jenkins, GitHub annotations) read:
/// one `testsuite`, one `testcase` per scenario, a `failure` with the step and its message, or an
/// `error` for a file that could not be loaded (no step ran: the suite is broken, not the app).
public enum JUnitReport {
    public static func xml(_ results: [ScenarioResult], suite: String = "cashout-sandbox") -> String {
        let errors = results.filter(\.unloadable).count
        let failures = results.filter { !$0.passed }.count - errors
        let time = results.reduce(0) { $0 + $1.seconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(time))">"# + "\n"
        xml += #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" skipped="0" time="\#(seconds(time))">"# + "\n"
        for result in results {
            let opening = #"    <testcase classname="\#(escape(result.file))" name="\#(escape(result.name))" time="\#(seconds(result.seconds))""#
            if let message = result.failureText {
                let (element, type) = result.unloadable ? ("error", "ScenarioNotLoaded") : ("failure", "StepFailed")
                xml += opening + ">\n"
                xml += #"      <\#(element) message="\#(escape(message))" type="\#(type)">\#(escape(message))</\#(element)>"# + "\n"
                xml += "    </testcase>\n"
            } else if let expected = result.expectedFailure {
                let message = "failed as expected (\(expected.reason)): step \(expected.step): \(expected.message)"
                xml += opening + ">\n"
                xml += "      <system-out>\(escape(message))</system-out>\n"
                xml += "    </testcase>\n"
            } else {
                xml += opening + "/>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        return "\(millis / 1000).\(String(millis % 1000 + 1000).dropFirst())"
    }

    /// Text safe in XML attributes and content; characters XML 1.0 forbids become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE ... 0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
