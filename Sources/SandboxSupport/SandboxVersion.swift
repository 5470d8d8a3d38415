/// A version of cashout-sandbox, `MAJOR.MINOR.PATCH` as semantic versioning 2.0.0 orders them
/// (<https://semver.org>): the one declaration of the version this build is (`--version`,
/// `/sandbox/health`, the metrics' `cashout_sandbox_build_info`, the OpenAPI document's
/// `info.version`), and what a suite says it was written for (`written_for`: the Changes guide says
/// what each version changed that a gate can see).
///
/// ```swift
/// let written = SandboxVersion("0.2.0")!   // a suite's written_for
/// written < .current                       // true: what came after it is a NOTE, not a failure
/// ```
package struct SandboxVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    let major: Int
    let minor: Int
    let patch: Int

    /// This build's version. It moves with every release that changes what a suite or an app can see.
    package static let current = SandboxVersion(0, 3, 0)

    /// What a suite that states no `written_for` was written for: 0.2.0, the last version whose suites
    /// had no such key. Its checks and defaults are those the sandbox had when 0.2.0 was released.
    package static let unstated = SandboxVersion(0, 2, 0)

    /// The earliest version a suite may state: the first whose changes the Changes guide lists.
    package static let earliest = unstated

    package init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// `0.3.0`: three whole numbers without leading zeros, nil for anything else (`0.3`, `v0.3.0`,
    /// `0.3.0-beta`).
    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part == "0" || part.first != "0", let number = Int(part) else { return nil }
            numbers.append(number)
        }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    package var description: String { "\(major).\(minor).\(patch)" }

    package static func < (lhs: SandboxVersion, rhs: SandboxVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}
