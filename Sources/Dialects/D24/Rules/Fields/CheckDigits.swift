// Check-digit algorithms of D24's Cashouts docs (docs.d24.com), "Countries validations": CPF/CNPJ (Brazil, mod 11), CLABE (Mexico,
// weights 3-7-1), CBU/CVU (Argentina, BCRA blocks), CCI (Peru, two 1-2 digit-sum checks) and
// Luhn (Mexican card detection).

/// Check-digit validators. Each takes the number as ASCII digits only: any other character,
/// or the wrong length, makes it invalid.
///
/// ```swift
/// CheckDigits.isValidCPF("01716001340")              // true
/// CheckDigits.isValidCLABE("021790064060296642")     // true
/// CheckDigits.isValidCCI("00219300153895206813")     // true
/// ```
enum CheckDigits {
    /// A Brazilian CPF: 11 digits, two mod-11 check digits. Numbers of one repeated digit
    /// (`00000000000`, `11111111111`, ...) pass the arithmetic but are refused, as the Receita
    /// Federal does.
    static func isValidCPF(_ digits: String) -> Bool {
        guard let d = values(digits, count: 11), !allSame(d) else { return false }
        return d[9] == mod11(d[0..<9], weights: cpfWeights.first)
            && d[10] == mod11(d[0..<10], weights: cpfWeights.second)
    }

    private static let cpfWeights = (first: Array((2...10).reversed()), second: Array((2...11).reversed()))

    /// A Brazilian CNPJ: 14 digits, two mod-11 check digits (weights 5..2,9..2 and 6..2,9..2).
    /// Repeated-digit numbers are refused.
    static func isValidCNPJ(_ digits: String) -> Bool {
        guard let d = values(digits, count: 14), !allSame(d) else { return false }
        return d[12] == mod11(d[0..<12], weights: [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
            && d[13] == mod11(d[0..<13], weights: [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    }

    /// A Mexican CLABE: 18 digits; the last is `(10 - Σ(dᵢ·wᵢ mod 10) mod 10) mod 10` with
    /// weights 3, 7, 1 repeating over the first 17.
    static func isValidCLABE(_ digits: String) -> Bool {
        guard let d = values(digits, count: 18) else { return false }
        let weights = [3, 7, 1]
        var sum = 0
        for index in 0..<17 { sum += (d[index] * weights[index % 3]) % 10 }
        return d[17] == (10 - sum % 10) % 10
    }

    /// An Argentine CBU (or CVU): 22 digits in two blocks. Digits 0-6 weighted 7,1,3,9,7,1,3
    /// give the check digit at index 7; digits 8-20 weighted 3,9,7,1,... give the one at 21.
    static func isValidCBU(_ digits: String) -> Bool {
        guard let d = values(digits, count: 22) else { return false }
        return d[7] == mod10(d[0..<7], weights: [7, 1, 3, 9, 7, 1, 3])
            && d[21] == mod10(d[8..<21], weights: [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3])
    }

    /// A Peruvian CCI: 20 digits; digit 18 checks digits 0-5 and digit 19 checks digits 6-17.
    /// Each check multiplies the digits by 1, 2, 1, 2, ..., adds the digits of each product and
    /// takes `(10 - total mod 10) mod 10`.
    static func isValidCCI(_ digits: String) -> Bool {
        guard let d = values(digits, count: 20) else { return false }
        func check(_ slice: ArraySlice<Int>) -> Int {
            var total = 0
            for (offset, digit) in slice.enumerated() {
                let product = digit * (offset % 2 == 0 ? 1 : 2)
                total += product / 10 + product % 10
            }
            return (10 - total % 10) % 10
        }
        return d[18] == check(d[0..<6]) && d[19] == check(d[6..<18])
    }

    /// The Luhn (mod 10) check used by payment card numbers; at least two digits.
    static func isValidLuhn(_ digits: String) -> Bool {
        guard digits.utf8.count >= 2, let d = values(digits, count: digits.utf8.count) else { return false }
        var sum = 0
        for (offset, digit) in d.reversed().enumerated() {
            if offset % 2 == 1 {
                let doubled = digit * 2
                sum += doubled > 9 ? doubled - 9 : doubled
            } else {
                sum += digit
            }
        }
        return sum % 10 == 0
    }

    /// The digit values of `text` when it is exactly `count` ASCII digits.
    private static func values(_ text: String, count: Int) -> [Int]? {
        guard text.utf8.count == count else { return nil }
        var result: [Int] = []
        result.reserveCapacity(count)
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            result.append(Int(byte - 0x30))
        }
        return result
    }

    private static func allSame(_ digits: [Int]) -> Bool {
        digits.allSatisfy { $0 == digits[0] }
    }

    /// Mod-11 check digit: 11 - (Σ dᵢ·wᵢ mod 11), or 0 when that is 10 or 11.
    private static func mod11(_ digits: ArraySlice<Int>, weights: [Int]) -> Int {
        let sum = zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 }
        let remainder = sum % 11
        return remainder < 2 ? 0 : 11 - remainder
    }

    /// Mod-10 check digit: (10 - Σ dᵢ·wᵢ mod 10) mod 10.
    private static func mod10(_ digits: ArraySlice<Int>, weights: [Int]) -> Int {
        let sum = zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 }
        return (10 - sum % 10) % 10
    }
}
