// Hand-written matchers for the formats of D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint" and
// "Countries Specifications" (amount, email regex of that page, phone, account patterns, dates, URLs).
// Plain loops over UTF-8 bytes: no Foundation, no Regex.

/// Small, allocation-light format matchers shared by the country rules.
enum D24Syntax {
    /// Whether `text` is non-empty and only ASCII digits.
    static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Whether `text` is only ASCII digits with a length in `lengths`.
    static func isDigits(_ text: some StringProtocol, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count) && isDigits(text)
    }

    /// Whether `text` is only ASCII letters and digits with a length in `lengths`.
    static func isAlphanumeric(_ text: some StringProtocol, lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(text.utf8.count) && text.utf8.allSatisfy { isDigit($0) || isLetter($0) }
    }

    /// Whether `text` is exactly `count` ASCII uppercase letters.
    static func isUppercaseLetters(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
    }

    /// Whether `text` is empty or only whitespace.
    static func isBlank(_ text: String) -> Bool {
        // Most values start with a printable ASCII character: known not blank without decoding.
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII ? scalar == " " || (0x09 ... 0x0D).contains(scalar.value) : scalar.properties.isWhitespace
        }
    }

    /// The ASCII digits of `text`, in order (separators dropped).
    static func digits(of text: String) -> String {
        String(decoding: text.utf8.filter(isDigit), as: UTF8.self)
    }

    /// `^\d{body}(-)?[\d]$` (or `[\dxX]` when `letterX`): digits, an optional hyphen, one check
    /// character; `body` bounds the digits before the check character.
    static func isAccount(_ text: String, body: ClosedRange<Int>, letterX: Bool = false) -> Bool {
        var bytes = Array(text.utf8)
        guard let check = bytes.popLast() else { return false }
        guard isDigit(check) || (letterX && (check == 0x58 || check == 0x78)) else { return false }
        if bytes.last == 0x2D { bytes.removeLast() }
        return body.contains(bytes.count) && bytes.allSatisfy(isDigit)
    }

    /// An amount: `\d+(\.\d+)?`, greater than zero, at most 15 integer digits and at most two
    /// significant decimals (`"10.50"`, `"10.500"` yes; `"1.234"`, `"1e3"`, `".5"`, `"-1"` no).
    static func isAmount(_ text: String) -> Bool {
        withBytes(of: text) { bytes in
            let dot = bytes.firstIndex(of: 0x2E) ?? bytes.endIndex
            let whole = bytes[..<dot]
            guard !whole.isEmpty, whole.count <= 15, whole.allSatisfy(isDigit) else { return false }
            var nonZero = whole.contains { $0 != 0x30 }
            if dot != bytes.endIndex {
                let fraction = bytes[(dot + 1)...]
                guard !fraction.isEmpty, fraction.allSatisfy(isDigit) else { return false }
                guard fraction.dropFirst(2).allSatisfy({ $0 == 0x30 }) else { return false }
                nonZero = nonZero || fraction.contains { $0 != 0x30 }
            }
            return nonZero
        }
    }

    /// The e-mail regex of the D24 "Countries Specifications" page, matched in full and
    /// case-insensitively: dot-separated atoms of ``localCharacters``, `@`, then dot-separated
    /// hostname labels (letters, digits, inner hyphens), at least two, the last at least two long.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: 0x40, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let atoms = parts[0].split(separator: 0x2E, omittingEmptySubsequences: false)
        guard atoms.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isLocalCharacter) }) else { return false }
        let labels = parts[1].split(separator: 0x2E, omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, last.count >= 2 else { return false }
        return labels.allSatisfy { label in
            guard let first = label.first, let end = label.last,
                  isDigit(first) || isLetter(first), isDigit(end) || isLetter(end) else { return false }
            return label.allSatisfy { isDigit($0) || isLetter($0) || $0 == 0x2D }
        }
    }

    /// A phone: digits with spaces, hyphens and parentheses, an optional leading `+`, and
    /// 7 to 15 digits (E.164's maximum).
    static func isPhone(_ text: String) -> Bool {
        var digitCount = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case 0x30...0x39: digitCount += 1
            case 0x20, 0x2D, 0x28, 0x29: continue
            case 0x2B where offset == 0: continue
            default: return false
            }
        }
        return (7...15).contains(digitCount)
    }

    /// A calendar date `YYYY-MM-DD` from 1900 on (leap years honoured).
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              year >= 1900, (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }

    /// An absolute `http://` or `https://` URL with a host and no whitespace or controls.
    static func isHTTPURL(_ text: String) -> Bool {
        withBytes(of: text) { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return isHTTPURL(lowercased: text.lowercased()) }
            // ASCII, as nearly every URL is: lowercasing would change letters only, which only the
            // scheme is checked for, so the scheme is compared ignoring case and no copy is made.
            for scheme in httpSchemes where bytes.count >= scheme.count && zip(bytes, scheme).allSatisfy({ asciiLowercased($0) == $1 }) {
                return isURLAfterScheme(bytes[scheme.count...])
            }
            return false
        }
    }

    /// `https://` and `http://` as bytes (compared with a buffer's bytes, not through a string's view).
    private static let httpSchemes = [Array("https://".utf8), Array("http://".utf8)]

    private static func isHTTPURL(lowercased lower: String) -> Bool {
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = lower.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = lower.dropFirst(7)
        } else {
            return false
        }
        return isURLAfterScheme(rest.utf8)
    }

    /// Whether what follows `http://` starts with a host (not `/`, `?` or `#`) and has no
    /// whitespace or controls.
    private static func isURLAfterScheme(_ rest: some Collection<UInt8>) -> Bool {
        guard let first = rest.first, first != 0x2F, first != 0x3F, first != 0x23 else { return false }
        return rest.allSatisfy { $0 > 0x20 && $0 != 0x7F }
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// `body` over the UTF-8 bytes of `text` as one buffer: loops over a buffer cost several times
    /// less than over a string's `utf8` view.
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = text
        return text.withUTF8(body)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// `[a-z0-9!#$%&'*+/=?^_\`{|}~-]` (case-insensitive).
    static func isLocalCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || isLetter(byte) || localPunctuation.contains(byte)
    }

    private static let localPunctuation: Set<UInt8> = Set("!#$%&'*+/=?^_`{|}~-".utf8)
}
