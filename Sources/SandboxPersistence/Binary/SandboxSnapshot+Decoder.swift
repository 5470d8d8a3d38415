import SandboxBank

extension SandboxSnapshot {
    /// Reads a snapshot from its records as they come (their payloads after the kind byte: the
    /// flags, then a part of the snapshot's bytes), decoding each part into the state it describes
    /// as it arrives: what it holds is the part of the bytes that ends in a value cut short, and
    /// the state built so far, never the whole snapshot's bytes.
    struct Decoder {
        private let formats: BankFormat.Lookup
        /// The bytes of the snapshot being read that are not decoded yet; nil when none is being read.
        private var pending: [UInt8]?
        /// Where `pending` starts among the snapshot's bytes (errors say where they are in them).
        private var decoded = 0
        private var version: Int?
        /// The scenarios read, and (once their count is read) how many are still to come.
        private var scenarios: [[UInt8]] = []
        private var scenariosLeft: Int?
        private var bank: BankSnapshot.Decoder?
        /// The snapshot, when its bytes ended before its last part.
        private var completed: SandboxSnapshot?

        init(formats: @escaping BankFormat.Lookup) {
            self.formats = formats
        }

        /// Adds one record; returns the snapshot once its last record is in. After a throw, the
        /// snapshot being read is dropped: its next record is refused as one without the first.
        mutating func add(_ payload: UnsafeRawBufferPointer) throws(Invalid) -> SandboxSnapshot? {
            guard let flags = payload.first, flags <= 3 else { throw Invalid(description: "a snapshot record without its flags") }
            if flags & 1 != 0 { self = Decoder(formats: formats); pending = [] }
            guard var bytes = pending else { throw Invalid(description: "a snapshot record without the first one") }
            pending = nil  // until this part is read: a throw drops the snapshot
            let last = flags & 2 != 0
            bytes.append(contentsOf: payload.dropFirst())
            if let read = completed {  // it ended before its last part, which may add nothing
                guard bytes.isEmpty else { throw Invalid(description: "snapshot byte \(decoded): bytes after the snapshot") }
                if last { return read }
                pending = bytes
                return nil
            }
            let outcome = bytes.withUnsafeBytes { buffer -> Result<(Int, SandboxSnapshot?), BinaryReader.Malformed> in
                var reader = BinaryReader(buffer, more: !last)
                do throws(BinaryReader.Malformed) {
                    let snapshot = try read(&reader)
                    if snapshot != nil, !reader.isAtEnd {
                        throw BinaryReader.Malformed(offset: reader.offset, reason: "bytes after the snapshot")
                    }
                    if last, snapshot == nil { throw BinaryReader.Malformed(offset: reader.offset, reason: "a snapshot cut short") }
                    return .success((reader.offset, snapshot))
                } catch {
                    return .failure(error)
                }
            }
            let (consumed, snapshot): (Int, SandboxSnapshot?)
            switch outcome {
            case .success(let result): (consumed, snapshot) = result
            case .failure(let error): throw Invalid(description: "snapshot byte \(decoded + error.offset): \(error.reason)")
            }
            if last { return snapshot }
            bytes.removeSubrange(0 ..< consumed)
            decoded += consumed
            pending = bytes
            completed = snapshot
            return nil
        }

        /// Reads on from `reader`: the version, the scenarios, then the bank.
        private mutating func read(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) -> SandboxSnapshot? {
            while bank == nil {
                guard try reader.whole({ reader throws(BinaryReader.Malformed) in try readHeading(&reader) }) != nil else { return nil }
            }
            guard let snapshot = try bank!.read(&reader) else { return nil }
            return SandboxSnapshot(scenarios: scenarios, bank: snapshot)
        }

        /// Reads one value before the bank: the version, the scenarios' count, or a scenario.
        private mutating func readHeading(_ reader: inout BinaryReader) throws(BinaryReader.Malformed) {
            guard let version else {
                let start = reader.offset
                let number = try reader.uint()
                guard let version = Int(exactly: number), BankFormat.readable.contains(version) else {
                    throw BinaryReader.Malformed(offset: start, reason: "a snapshot version this sandbox does not know")
                }
                self.version = version
                return
            }
            guard let left = scenariosLeft else {
                scenariosLeft = try reader.countAcrossParts()
                return
            }
            guard left > 0 else {
                bank = BankSnapshot.Decoder(format: formats(version))
                return
            }
            scenarios.append(try reader.bytes())
            scenariosLeft = left - 1
        }
    }
}
