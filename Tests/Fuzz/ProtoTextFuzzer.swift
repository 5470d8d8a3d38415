// libFuzzer harness for `.proto` text (ProtoText: lexer, grammar, name resolution). Built and run
// by .ci/fuzz; seeds made by it from the sandbox's own .proto files (proto_seeds: PayoutService's
// as one file, health, reflection), dictionary Tests/Fuzz/proto.dict.
//
// Any input is a file, `fuzz.proto`, read beside a fixed `base.proto` it may import. The
// properties, any break of which traps:
//   * reading never crashes, whatever the bytes: it gives schemas or a ProtoTextError;
//   * what it reads makes descriptors that decode as FileDescriptorProtos naming the same file,
//     and a registry in which every message's empty instance encodes and decodes back the same;
//   * whitespace does not matter: the text with a space before every line break reads the same.

@testable import SandboxWire

private let base = (name: "base.proto", text: """
    syntax = "proto3";
    package base;
    message Money { int64 minor_amount = 1; Currency currency = 2; }
    enum Currency { CURRENCY_UNSPECIFIED = 0; USD = 1; }
    """)

private let descriptors = ProtoRegistry([ProtoFile.descriptorSubset])

private func read(_ text: String) -> Result<[ProtoFile], ProtoTextError> {
    Result { () throws(ProtoTextError) in try ProtoText.files([("fuzz.proto", text), base]) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func protoTextFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let text = String(decoding: input, as: UTF8.self)
    let read = read(text)
    let spaced = ProtoTextFuzz.spaced(text)
    switch (read, spaced) {
    case (.failure(let error), .failure):
        if fuzzShow { fuzzShowLine("refused: \(error)") }
        return 0
    case (.success(let files), .success(let again)):
        guard files.map(\.descriptorBytes) == again.map(\.descriptorBytes) else { fuzzFail("spaces before line breaks changed the schemas", input) }
        for file in files {
            guard let descriptor = try? descriptors.decode("google.protobuf.FileDescriptorProto", from: file.descriptorBytes),
                  descriptor.string("name") == file.name else { fuzzFail("\(file.name)'s descriptor does not decode", input) }
        }
        let registry = ProtoRegistry(files)
        for file in files {
            for message in file.messages {
                let empty = registry.message(message.fullName)
                guard (try? registry.decode(message.fullName, from: empty.encoded())) == empty else {
                    fuzzFail("an empty \(message.fullName) does not round-trip", input)
                }
            }
        }
        if fuzzShow { fuzzShowLine("read: \(files.map(\.name))") }
        return 0
    default:
        fuzzFail("spaces before line breaks changed whether it reads: \(read) / \(spaced)", input)
    }
}

private enum ProtoTextFuzz {
    /// `text` read with a space before each line break (which ends a `//` comment and may not
    /// be in a string either way).
    static func spaced(_ text: String) -> Result<[ProtoFile], ProtoTextError> {
        read(String(decoding: text.utf8.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: " "), $0] : [$0] }, as: UTF8.self))
    }
}
