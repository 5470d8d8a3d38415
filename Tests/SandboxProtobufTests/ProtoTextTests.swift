import Dispatch
@testable import SandboxWire
import Synchronization
import Testing

@Suite struct ProtoTextTests {
    /// `Sample.file` written as a `.proto` file: comments of both kinds, every scalar type, an enum
    /// and a message nested in a message and referred to from inside it, a oneof, optional and
    /// repeated fields, a negative and a hexadecimal enum number.
    static let everything = """
        // Every kind of declaration the sandbox reads.
        syntax = "proto3";

        package sample;

        message Everything {
          /* block
             comment */
          double a_double = 1; float a_float = 2;
          int64 an_int64 = 3; uint64 a_uint64 = 4;
          int32 an_int32 = 5; fixed64 a_fixed64 = 6;
          fixed32 a_fixed32 = 7; bool a_bool = 8;
          string a_string = 9; bytes some_bytes = 10;
          uint32 a_uint32 = 11; sfixed32 an_sfixed32 = 12;
          sfixed64 an_sfixed64 = 13; sint32 an_sint32 = 14;
          sint64 an_sint64 = 15;
          Status status = 16;
          Inner inner = 17;
          optional string nickname = 18;
          optional int32 count = 19;
          oneof method {
            Everything.Inner card = 20;
            string iban = 21;
          }
          repeated string tags = 22;
          repeated int32 numbers = 23;
          repeated .sample.Everything.Inner inners = 24;
          repeated Level levels = 25;
          Everything child = 26;

          message Inner {
            string value = 1;
            int64 minor_units = 2;
          }
          enum Level {
            LEVEL_UNSPECIFIED = 0;
            LOW = 1;
            HIGH = 0x2;
          }
        }

        enum Status {
          STATUS_UNSPECIFIED = 0;
          PENDING = 1;
          SUCCESS = 2;
          NEGATIVE = -1;
        }

        service Echo {
          rpc Echo(Everything) returns (Everything);
        }
        """

    @Test func aFileReadsToTheSchemaDeclaredInSwiftByteForByte() throws {
        let files = try ProtoText.files([("sample/everything.proto", Self.everything)])
        #expect(files.map(\.name) == ["sample/everything.proto"])
        #expect(files[0].descriptorBytes == Sample.file.descriptorBytes)
    }

    @Test func typesAreFoundFromTheInnermostScopeOutwardsAcrossImports() throws {
        let files = try ProtoText.files([
            ("a.proto", """
                syntax = "proto3";
                package shop.orders;
                import "b.proto";
                message Order {
                  message Money { int64 cents = 1; }
                  Money total = 1;          // shop.orders.Order.Money, not shop.Money
                  Currency currency = 2;    // shop.Currency, from b.proto
                  shop.Money refund = 3;
                }
                service Orders { rpc Watch(stream Order) returns (stream shop.Money) {} }
                """),
            ("b.proto", """
                syntax = 'proto3';
                package shop;
                message Money { int64 units = 1; }
                enum Currency { CURRENCY_UNSPECIFIED = 0; }
                """),
        ])
        let order = try #require(files[0].messages.first)
        #expect(order.fields.map(\.type) == [.message("shop.orders.Order.Money"), .enumeration("shop.Currency"), .message("shop.Money")])
        #expect(files[0].dependencies == ["b.proto"])
        let method = try #require(files[0].services.first?.methods.first)
        #expect(method.input == "shop.orders.Order" && method.output == "shop.Money" && method.clientStreaming && method.serverStreaming)
    }

    /// What a start routes from (`ProtoText.services(of:)`) is what the whole read gives, and a
    /// registry that reads its files on first use answers as one given them.
    @Test func servicesAloneAndALazyRegistryAgreeWithTheWholeRead() throws {
        let sources = [("sample/everything.proto", Self.everything)]
        let files = try ProtoText.files(sources)
        let services = try ProtoText.services(of: sources[0])
        #expect(services.map(\.fullName) == ["sample.Echo"])
        #expect(services == files.flatMap(\.services))
        // A partly qualified type is refused rather than guessed: only the whole read tells its scope.
        let orders = "syntax = 'proto3';\npackage shop.orders;\nservice Orders { rpc Watch(Order) returns (shop.Money); }"
        do throws(ProtoTextError) {
            _ = try ProtoText.services(of: ("orders.proto", orders))
            Issue.record("a partly qualified type was read")
        } catch {
            #expect(error.description == "orders.proto:3:18: shop.Money: a services file read alone names its methods' types "
                        + "in its own package, or fully qualified (.shop.Money)")
        }
        #expect(try ProtoText.services(of: ("orders.proto", orders.replacing("(shop.Money)", with: "(.shop.Money)")))
                    .flatMap(\.methods).map(\.output) == ["shop.Money"])
        let reads = Mutex(0)
        let lazy = ProtoRegistry(services: services) {
            reads.withLock { $0 += 1 }
            return try! ProtoText.files(sources)
        }
        #expect(lazy.service("sample.Echo")?.method("Echo")?.input == "sample.Everything")
        #expect(reads.withLock { $0 } == 0)  // routing needs no file
        DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = lazy.message("sample.Everything") }
        #expect(reads.withLock { $0 } == 1)
        let eager = ProtoRegistry(files)
        #expect(lazy.files.map(\.descriptorBytes) == eager.files.map(\.descriptorBytes))
        #expect(lazy.file(containingSymbol: "sample.Everything.Inner.value")?.name == "sample/everything.proto")
        #expect(lazy.enumSchema("sample.Everything.Level") != nil && lazy.messageSchema("sample.Everything.Inner") != nil)
    }

    /// Messages nest up to protoc's 32 levels; deeper is refused where it starts (not a stack
    /// overflow at 6,000, found by .ci/fuzz proto), and what is read has descriptors that decode.
    @Test func messagesNestUpToThirtyTwoDeep() throws {
        func nested(_ depth: Int) -> String {
            "syntax = \"proto3\";\n" + String(repeating: "message M { ", count: depth) + "int32 a = 1; "
                + String(repeating: "}", count: depth)
        }
        let files = try ProtoText.files([("f.proto", nested(32))])
        let descriptors = ProtoRegistry([ProtoFile.descriptorSubset])
        #expect(try descriptors.decode("google.protobuf.FileDescriptorProto", from: files[0].descriptorBytes).string("name") == "f.proto")
        for depth in [33, 6_000] {
            #expect(throws: ProtoTextError.self) { try ProtoText.files([("f.proto", nested(depth))]) }
            do {
                _ = try ProtoText.files([("f.proto", nested(depth))])
            } catch {
                #expect(error.description == "f.proto:2:385: messages nested more than 32 deep are not read")
            }
        }
    }

    /// What the schemas cannot carry, and mistakes, are refused with the file, line and column.
    @Test(arguments: [
        ("syntax = \"proto2\";", "f.proto:1:10: expected \"proto3\" (proto2 is not read), got \"proto2\""),
        ("message A {}", "f.proto:1:1: expected syntax = \"proto3\"; first, got 'message'"),
        ("syntax = \"proto3\";\noption java_package = \"x\";", "f.proto:2:1: options are not read"),
        ("syntax = \"proto3\";\nmessage A { map<string, int32> m = 1; }", "f.proto:2:13: map fields are not read: declare a repeated entry message"),
        ("syntax = \"proto3\";\nmessage A { reserved 2; }", "f.proto:2:13: reserved numbers and names are not read"),
        ("syntax = \"proto3\";\nmessage A { extensions 100 to 199; }", "f.proto:2:13: extensions are not read"),
        ("syntax = \"proto3\";\nmessage A { required int32 a = 1; }", "f.proto:2:13: proto2's 'required' is not read"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 1 [json_name = \"b\"]; }", "f.proto:2:25: expected ';' (field options are not read), got '['"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 0; }", "f.proto:2:23: field number 0 is not allowed (1 to 536870911, but 19000 to 19999)"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 19500; }",
         "f.proto:2:23: field number 19500 is not allowed (1 to 536870911, but 19000 to 19999)"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 536870912; }", "f.proto:2:23: the field number 536870912 is out of range (at most 536870911)"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 1; int32 b = 1; }", "f.proto:2:26: A: field number 1 is used twice"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 1; string a = 2; }", "f.proto:2:26: A: the field a is declared twice"),
        ("syntax = \"proto3\";\nenum E { ONE = 1; }", "f.proto:2:10: enum E: its first value must be 0 (proto3)"),
        ("syntax = \"proto3\";\nenum E { ZERO = 0; ZERO = 1; }", "f.proto:2:20: enum E: the value ZERO is declared twice"),
        ("syntax = \"proto3\";\nenum E { ZERO = 0; BIG = 2147483648; }",
         "f.proto:2:26: the value's number 2147483648 is out of range (at most 2147483647)"),
        ("syntax = \"proto3\";\nmessage A { Missing m = 1; }", "f.proto:2:13: no message or enum Missing is declared where it is used"),
        ("syntax = \"proto3\";\nmessage A { .a.A m = 1; }", "f.proto:2:13: no message or enum a.A"),
        ("syntax = \"proto3\";\nmessage A {}\nmessage A {}", "f.proto:3:1: A is declared twice"),
        // Enum values are names of the enum's scope; a field, a nested type and a method share their parent's
        // (two of these made a registry that trapped: found by .ci/fuzz proto).
        ("syntax = \"proto3\";\npackage p;\nenum A { A0 = 0; X = 1; }\nenum B { B0 = 0; X = 1; }", "f.proto:4:18: p.X is declared twice"),
        ("syntax = \"proto3\";\nenum A { A0 = 0; }\nmessage A0 {}", "f.proto:3:1: A0 is declared twice"),
        ("syntax = \"proto3\";\nmessage M { message X {} X X = 1; }", "f.proto:2:26: M.X is declared twice"),
        ("syntax = \"proto3\";\nmessage M {}\nservice S { rpc A(M) returns (M); rpc A(M) returns (M); }", "f.proto:3:35: S.A is declared twice"),
        ("syntax = \"proto3\";\nimport \"other.proto\";", "f.proto:2:1: imports \"other.proto\", which is not among the files read (f.proto)"),
        ("syntax = \"proto3\";\nimport public \"other.proto\";", "f.proto:2:8: expected a plain import (public imports are not read), got 'public'"),
        ("syntax = \"proto3\";\npackage a;\npackage b;", "f.proto:3:1: expected one package statement per file, got 'package'"),
        ("syntax = \"proto3\";\nmessage A { oneof o { optional int32 a = 1; } }",
         "f.proto:2:23: expected a field without a label (a oneof's fields are singular), got 'optional'"),
        ("syntax = \"proto3\";\nenum E { ZERO = 0; }\nservice S { rpc M(E) returns (E); }", "f.proto:3:13: M: a method takes and returns messages"),
        ("syntax = \"proto3\";\nmessage A {\n  int32 a = 1;", "f.proto:3:14: expected '}' closing message A, got the end of the file"),
        ("syntax = \"proto3\";\n/* never closed", "f.proto:2:1: a comment that is never closed with */"),
        ("syntax = \"proto3\";\nimport \"a.proto", "f.proto:2:8: a string that is never closed"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 1; } @", "f.proto:2:28: unexpected character '@'"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 0x; }", "f.proto:2:25: a hexadecimal integer without digits"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 09; }", "f.proto:2:24: '9' is not a digit of a base-8 integer"),
        ("syntax = \"proto3\";\nmessage A { int32 a = 99999999999999999999; }", "f.proto:2:42: an integer too large for 64 bits"),
        ("syntax = \"proto3\";\nservice S { rpc M(A) returns (A) { option deprecated = true; } }", "f.proto:2:36: options are not read"),
    ])
    func refusalsSayWhereAndWhy(text: String, message: String) {
        #expect(throws: (any Error).self) { try ProtoText.files([("f.proto", text)]) }
        do {
            _ = try ProtoText.files([("f.proto", text)])
        } catch {
            #expect(error.description == message)
        }
    }
}
