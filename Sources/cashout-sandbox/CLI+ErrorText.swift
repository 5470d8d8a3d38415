import FoundationEssentials

extension CLI {
    /// `error` as Foundation's `localizedDescription` words it (swift-corelibs-foundation's
    /// `NSError`), for the errors of writing a file: the messages users saw while the command line
    /// loaded Foundation, which FoundationEssentials does not have.
    static func text(of error: any Error) -> String {
        let reason = if let error = error as? CocoaError {
            fileErrorReasons[error.code.rawValue] ?? "(NSCocoaErrorDomain error \(error.code.rawValue).)"
        } else {
            "(\(String(reflecting: type(of: error))) error \(error._code).)"
        }
        return "The operation could not be completed. \(reason)"
    }

    /// Foundation's reasons for the file errors (`CocoaError.Code` 0 to 1023) that have one.
    private static let fileErrorReasons: [Int: String] = [
        4: "The file doesn’t exist.", 255: "The file couldn’t be locked.", 257: "You don’t have permission.",
        258: "The file name is invalid.", 259: "The file isn’t in the correct format.", 260: "The file doesn’t exist.",
        261: "The specified text encoding isn’t applicable.", 262: "The specified URL type isn’t supported.",
        263: "The item is too large.", 264: "The text encoding of the contents couldn’t be determined.",
        513: "You don’t have permission.", 514: "The file name is invalid.", 516: "A file with the same name already exists.",
        517: "The specified text encoding isn’t applicable.", 518: "The specified URL type isn’t supported.",
        640: "There isn’t enough space.", 642: "The volume is read only.",
    ]
}
