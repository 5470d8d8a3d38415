/// One RPC of a service: its name, request and response message types, and which sides stream.
package struct MethodSchema: Sendable, Equatable {
    /// The method's name, e.g. `Get`.
    package let name: String
    /// The request message's full name.
    package let input: String
    /// The response message's full name.
    package let output: String
    /// Whether the client sends a stream of messages.
    let clientStreaming: Bool
    /// Whether the server answers with a stream of messages.
    let serverStreaming: Bool

    /// Declares a method; unary unless told otherwise.
    package init(_ name: String, input: String, output: String, clientStreaming: Bool = false, serverStreaming: Bool = false) {
        self.name = name
        self.input = input
        self.output = output
        self.clientStreaming = clientStreaming
        self.serverStreaming = serverStreaming
    }

    /// Whether one request gets one response.
    package var isUnary: Bool { !clientStreaming && !serverStreaming }
}
