import SandboxWebhooks

// The public types the facade's API names that live in the modules underneath, under the names
// users know (`import CashoutSandbox` is all a user writes).

/// The built-in webhook receivers, `/sandbox/sink/{name}` (`SandboxWebhooks`).
public typealias SinkStore = SandboxWebhooks.SinkStore
