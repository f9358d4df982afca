// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MigrationExplorer",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "MigrationCore", targets: ["MigrationCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "MigrationCore",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(name: "migration-bench", dependencies: ["MigrationCore"]),
        .testTarget(name: "MigrationCoreTests", dependencies: ["MigrationCore"]),
    ],
    swiftLanguageModes: [.v6]
)
