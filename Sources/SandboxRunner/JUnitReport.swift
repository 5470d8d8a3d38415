/// Scenario results as JUnit XML, the format CI viewers (GitLab, Jenkins, GitHub annotations) read:
/// one `testsuite`, one `testcase` per scenario, a `failure` with the step and its message, or an
/// `error` for a file that could not be loaded (no step ran: the suite is broken, not the app).
/// A command run beside the steps (`test --serve --exec`) adds its own `failure` when it failed,
/// and its output as `system-out`. The first failure's text goes on with the timelines of the payouts
/// the failures name (`test --serve`, `explore`), real times and all, as CI systems show that text.
package enum JUnitReport {
    package static func xml(_ results: [ScenarioResult], suite: String = "cashout-sandbox") -> String {
        let errors = results.filter(\.unloadable).count
        let failures = results.filter { !$0.passed }.count - errors
        let skipped = results.filter { $0.skipped != nil }.count
        let time = results.reduce(0) { $0 + $1.seconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(time))">"# + "\n"
        xml += #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" "#
            + #"skipped="\#(skipped)" time="\#(seconds(time))">"# + "\n"
        for result in results {
            let opening = #"    <testcase classname="\#(escape(result.file))" name="\#(escape(result.name))" time="\#(seconds(result.seconds))""#
            let children = self.children(of: result)
            xml += children.isEmpty ? opening + "/>\n" : opening + ">\n" + children.map { "      \($0)\n" }.joined() + "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// A testcase's elements: how many times the clock stopped for the app (a property), a failed
    /// step's `failure` (or the `error` of a file not loaded), a failed command's `failure`, and a
    /// `system-out` with an expected failure, the run's notes (a step that went on while the app was
    /// busy) and the command's output.
    private static func children(of result: ScenarioResult) -> [String] {
        var children: [String] = []
        if result.clockStops > 0 {
            children.append(#"<properties><property name="clock_stops" value="\#(result.clockStops)"/></properties>"#)
        }
        if let reason = result.skipped { children.append(#"<skipped message="\#(escape(reason))"/>"#) }
        // The first failure's text goes on with what was found after it and the named payouts' timelines, as the terminal
        // shows them.
        let more = [result.foundAfterLines, result.timelineLines(realTime: true)].filter { !$0.isEmpty }
        var told = more.isEmpty
        func text(_ message: String) -> String {
            defer { told = true }
            return told ? message : message + "\n\n" + more.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
        }
        if let message = result.failureText {
            let (element, type) = result.unloadable ? ("error", "ScenarioNotLoaded") : ("failure", "StepFailed")
            children.append(#"<\#(element) message="\#(escape(message))" type="\#(type)">\#(escape(text(message)))</\#(element)>"#)
        }
        if let ledger = result.ledgerFailure {
            children.append(#"<failure message="\#(escape(ledger))" type="LedgerMismatch">\#(escape(text(ledger)))</failure>"#)
        }
        if let command = result.command, let failure = result.commandFailure {
            children.append(#"<failure message="\#(escape(failure))" type="CommandFailed">\#(escape("\(failure): \(command.command)"))</failure>"#)
        }
        var output: [String] = []
        if let expected = result.expectedFailure {
            output.append("failed as expected (\(expected.reason)): step \(expected.step): \(expected.message)")
        }
        output += result.notes
        if let command = result.command, !command.output.isEmpty { output.append(command.output) }
        if !output.isEmpty { children.append("<system-out>\(escape(output.joined(separator: "\n")))</system-out>") }
        return children
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        return "\(millis / 1000).\(String(millis % 1000 + 1000).dropFirst())"
    }

    /// Text safe in XML attributes and content; characters XML 1.0 forbids become U+FFFD.
    package static func escape(_ text: String) -> String {
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
