import SandboxAdmin
import SandboxBank
import SandboxMiddleware
import SandboxObservability
import SandboxWebhooks

// The public types the facade's API names that live in the modules underneath, under the names
// users know (`import CashoutSandbox` is all a user writes).

/// The built-in webhook receivers, `/sandbox/sink/{name}` (`SandboxWebhooks`).
public typealias SinkStore = SandboxWebhooks.SinkStore

/// The `Host` check against DNS rebinding (`SandboxMiddleware`).
public typealias HostGuard = SandboxMiddleware.HostGuard

/// Where the sandbox logs what happens, one line each (`SandboxObservability`).
public typealias EventLog = SandboxObservability.EventLog

/// The app's requests and the deliveries to it in flight (`SandboxObservability`).
public typealias AppActivity = SandboxObservability.AppActivity

/// What decided a cashout's fate (`SandboxObservability`).
public typealias DecidedBy = SandboxObservability.DecidedBy

/// How far the steps of the suite run against this sandbox have come (`SandboxAdmin`).
public typealias SuiteProgress = SandboxAdmin.SuiteProgress

/// The outcomes the admin forces (`POST /sandbox/cashouts/{id}/actions`): declared beside the bank,
/// where the OpenAPI document reads its enum too.
public typealias ForcedAction = SandboxBank.ForcedAction
