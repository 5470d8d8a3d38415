/// A payout API with its part of the OpenAPI document and the Postman collection: the documents
/// are assembled from the dialects served that conform, in their order.
package protocol DocumentedDialect: Sendable {
    var docs: APIDocsFragment { get }
}
