/// Named text values in the order given (a payout's request fields, an account's settings, by the
/// owning API's names): a short list rather than a dictionary, because a bank holds one per payout
/// (a 20-field dictionary is several times the size) and reads them rarely (scenario matching,
/// authentication, the admin API).
///
/// ```swift
/// let fields: Fields = ["country": "BR", "amount": "100.00"]
/// fields["country"]   // "BR"
/// ```
public struct Fields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    private var list: [Field] = []

    public init() {}

    /// Later values of the same name replace earlier ones.
    public init<S: Sequence<(String, String)>>(_ pairs: S) {
        list.reserveCapacity(pairs.underestimatedCount)
        for (name, value) in pairs { self[name] = value }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public subscript(name: String) -> String? {
        get { list.first { $0.name == name }?.value }
        set {
            let index = list.firstIndex { $0.name == name }
            switch (index, newValue) {
            case let (index?, value?): list[index] = Field(name: name, value: value)
            case let (index?, nil): list.remove(at: index)
            case let (nil, value?): list.append(Field(name: name, value: value))
            case (nil, nil): break
            }
        }
    }

    public var count: Int { list.count }

    public func makeIterator() -> IndexingIterator<[Field]> { list.makeIterator() }

    /// Equal when they hold the same names and values, whatever the order.
    public static func == (lhs: Fields, rhs: Fields) -> Bool {
        lhs.count == rhs.count && lhs.list.allSatisfy { rhs[$0.name] == $0.value }
    }
}
