// swift-tools-version:6.0
// A user's package, outside CashoutSandbox: it depends on the testing library by path, as a Swift
// team would by URL, and proves the public API is enough for the in-process test of the Testing your app guide.
// Run by .ci/run: swift test --package-path Tests/ExternalPackage --scratch-path .build/external-package
// (a build folder here would go into the Docker image with `COPY Tests`).
import PackageDescription

let package = Package(
    name: "ExternalPackage",
    dependencies: [.package(name: "CashoutSandbox", path: "../..")],
    targets: [
        .testTarget(name: "ExternalPackageTests",
                    dependencies: [.product(name: "CashoutSandboxTesting", package: "CashoutSandbox")]),
    ]
)
