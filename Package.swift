// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "MigrationExplorer",
    // MigrationCore itself needs no more than iOS 15 / macOS 12 / tvOS 15 / watchOS 8; the
    // package asks for macOS 13 because the explorer's process handling needs it, and SwiftPM
    // has one platform list per package.
    platforms: [.iOS(.v15), .macOS(.v13), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "MigrationCore", targets: ["MigrationCore"]),
        .library(name: "MTMigration", targets: ["MTMigration"]),
        .library(name: "MigrationManifest", targets: ["MigrationManifest"]),
        .library(name: "MigrationSQLite", targets: ["MigrationSQLite"]),
        .library(name: "MigrationPostgres", targets: ["MigrationPostgres"]),
        .library(name: "MigrationExplorer", targets: ["MigrationExplorer"]),
        .executable(name: "migration-explorer", targets: ["migration-explorer"]),
    ],
    // PostgreSQL is opt-in: the explorer's `--postgres` and the benchmark's PostgreSQL section
    // need postgres-nio (SwiftNIO and BoringSSL), which a first build of the demo does without.
    // `swift build --traits PostgreSQL`, or traits: ["PostgreSQL"] on a dependency line, turns it
    // on, and SQLite with it. SQLite is on by default; an app embedding the explorer over a file
    // store turns it off with traits: [] and links no GRDB. The `MigrationSQLite` and
    // `MigrationPostgres` libraries themselves are always there for an app that names them.
    traits: [
        .trait(name: "SQLite", description: "The explorer's --sqlite store (GRDB)."),
        .trait(name: "PostgreSQL", description: "The explorer's --postgres store and PostgreSQL benchmarks (postgres-nio); --sqlite too.", enabledTraits: ["SQLite"]),
        .default(enabledTraits: ["SQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Every app links MigrationCore: it depends on no package.
        .target(name: "MigrationCore"),
        .target(name: "MTMigration", dependencies: ["MigrationCore"]),
        // Manifests (JSON with shell and SQL commands): for the explorer and the stores that
        // run SQL, not for every app that links MigrationCore.
        .target(name: "MigrationManifest", dependencies: ["MigrationCore"]),
        .target(
            name: "MigrationSQLite",
            dependencies: ["MigrationCore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "MigrationPostgres",
            dependencies: ["MigrationCore", .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
        .target(name: "CProcessControl"),
        .target(name: "CHeapUsage"),
        // No pkgConfig: ncursesw.pc's Cflags carry -D flags that SwiftPM refuses with a warning,
        // and shim.h defines what the header needs itself. The module map links ncursesw; on
        // macOS, Homebrew's ncurses is found with -Xcc -I and -Xlinker -L (see the README).
        .systemLibrary(name: "CNcurses"),
        .target(
            name: "MigrationExplorer",
            dependencies: [
                "MigrationCore", "MigrationManifest", "CNcurses", "CProcessControl",
                .target(name: "MigrationSQLite", condition: .when(traits: ["SQLite"])),
                .target(name: "MigrationPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .executableTarget(name: "migration-explorer", dependencies: ["MigrationExplorer"]),
        .executableTarget(name: "embedded-example", dependencies: ["MigrationCore", "MigrationExplorer"]),
        .executableTarget(name: "misbehaving-app", dependencies: ["MigrationCore", "MigrationExplorer"]),
        .executableTarget(
            name: "migration-bench",
            dependencies: [
                "MigrationCore", "MigrationSQLite", "MigrationExplorer", "CHeapUsage",
                .target(name: "MigrationPostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "ThrowawayPostgresServer", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // posix_spawn with no descriptor leaking, for the throwaway server and the tests.
        .target(name: "CSpawn"),
        .target(name: "MigrationTestSupport", dependencies: ["MigrationCore", "CSpawn"], path: "Tests/MigrationTestSupport"),
        // A throwaway PostgreSQL server (initdb, pg_ctl) for the tests and the benchmark: no product.
        .target(name: "ThrowawayPostgresServer", dependencies: ["MigrationCore", "CSpawn"]),
        // Holds a throwaway server until it is killed, for the test that the server goes with it.
        .executableTarget(name: "throwaway-postgres-holder", dependencies: ["ThrowawayPostgresServer"], path: "Tests/throwaway-postgres-holder"),
        .testTarget(name: "MigrationCoreTests", dependencies: ["MigrationCore", "MigrationTestSupport"]),
        .testTarget(name: "MigrationManifestTests", dependencies: ["MigrationManifest", "MigrationCore", "MigrationTestSupport"]),
        .testTarget(
            name: "SwitchingExamples",
            dependencies: ["MTMigration", "MigrationCore", "MigrationTestSupport"],
            path: "Tests/SwitchingExamples"
        ),
        .testTarget(
            name: "MigrationSQLiteTests",
            dependencies: ["MigrationSQLite", "MigrationCore", "MigrationTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "MigrationPostgresTests",
            dependencies: ["MigrationPostgres", "MigrationCore", "MigrationTestSupport", "ThrowawayPostgresServer", .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
        .testTarget(
            name: "MigrationExplorerTests",
            dependencies: [
                "MigrationExplorer", "MigrationCore", "MigrationTestSupport",
                "migration-explorer", "embedded-example",
                .target(name: "MigrationSQLite", condition: .when(traits: ["SQLite"])),
                .target(name: "MigrationPostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "ThrowawayPostgresServer", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "throwaway-postgres-holder", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
            ],
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
