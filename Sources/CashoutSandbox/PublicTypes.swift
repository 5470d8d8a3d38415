public import SandboxBank

/// The outcomes the admin forces (`POST /sandbox/cashouts/{id}/actions`): declared beside the bank,
/// where the OpenAPI document reads its enum too.
public typealias ForcedAction = SandboxBank.ForcedAction
