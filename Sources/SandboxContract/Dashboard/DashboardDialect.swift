/// A payout API with a part of the dashboard (its request form, views, cards on its cashouts'
/// page): the page is assembled from the dialects served that conform, in their order.
package protocol DashboardDialect: Sendable {
    var dashboard: DashboardPart { get }
}
