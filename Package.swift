// swift-tools-version:6.0
import PackageDescription

/// `make build` on Linux sets this when the archives are there (`libxml2-dev` ships `libxml2.a`):
/// libxml2, ICU, zlib, liblzma, libstdc++ and libgcc's unwinder are linked in, so the binary
/// needs the C library alone. `swift build` and `swift test` never set it.
let staticLibraries = Context.environment["PLIST_MIGRATE_STATIC_LIBRARIES"] == "1"
/// Where the Makefile puts linker scripts that make `-lstdc++` and `-lgcc_s` mean the archives.
let staticLibraryScripts = Context.packageDirectory + "/.build/static-libraries"
/// Without pkg-config (which would add `-lxml2`), libxml2's headers' folder by hand, for every
/// module that loads CLibXML2 (an incremental build loads it from any of them).
let libxml2Headers: [SwiftSetting] = staticLibraries ? [.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])] : []

let package = Package(
    name: "plist-migrate",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PlistDOM", targets: ["PlistDOM"]),
        .library(name: "Migrations", targets: ["Migrations"]),
        .library(name: "ATSPolicy", targets: ["ATSPolicy"]),
        .library(name: "FileAccess", targets: ["FileAccess"]),
        .library(name: "Project", targets: ["Project"]),
        .library(name: "PlistMigrate", targets: ["PlistMigrate"]),
        .executable(name: "plist-migrate", targets: ["plist-migrate"]),
        .executable(name: "plist-fuzz", targets: ["PlistFuzz"]),
        .plugin(name: "PlistMigratePlugin", targets: ["PlistMigratePlugin"]),
        .plugin(name: "PlistMigrateWritePlugin", targets: ["PlistMigrateWritePlugin"]),
        .plugin(name: "PlistLintPlugin", targets: ["PlistLintPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Recipe files are YAML: a YAML parser with line and column marks is far more than a few lines.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            path: staticLibraries ? "Sources/CLibXML2Static" : "Sources/CLibXML2",
            pkgConfig: staticLibraries ? nil : "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(name: "PlistDOM", dependencies: ["CLibXML2"], swiftSettings: libxml2Headers),
        .target(name: "Migrations", dependencies: ["PlistDOM"], path: "Migrations", swiftSettings: libxml2Headers),
        .target(name: "ATSPolicy", dependencies: ["PlistDOM"], swiftSettings: libxml2Headers),
        .target(name: "FileAccess", dependencies: ["PlistDOM"], swiftSettings: libxml2Headers),
        .target(name: "Project", dependencies: ["FileAccess", "ATSPolicy", "PlistDOM", .product(name: "Yams", package: "Yams")],
                // Mac Catalyst's version map, as data (its source in its header).
                resources: [.embedInCode("Resources/catalyst-version-map.tsv")],
                swiftSettings: libxml2Headers),
        .target(name: "PlistMigrate", dependencies: ["Project", "FileAccess", "Migrations", "ATSPolicy", "PlistDOM", .product(name: "Yams", package: "Yams")],
                // The review page's style and script, in files of their own, compiled into the
                // binary (it stays one file).
                resources: [.embedInCode("Report/Resources/review-page.css"), .embedInCode("Report/Resources/review-page.js")],
                swiftSettings: libxml2Headers),
        .executableTarget(
            name: "plist-migrate",
            dependencies: [
                "PlistMigrate", "FileAccess", "ATSPolicy", "PlistDOM",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: libxml2Headers,
            linkerSettings: staticLibraries ? [.unsafeFlags([
                "-Xlinker", "-Bstatic", "-Xlinker", "-lxml2", "-Xlinker", "-licuuc", "-Xlinker", "-licudata",
                "-Xlinker", "-lz", "-Xlinker", "-llzma", "-Xlinker", "-Bdynamic",
                // Searched before the compiler's own folders: its `-lstdc++` and `-lgcc_s` find the scripts.
                "-Xclang-linker", "-L" + staticLibraryScripts,
            ])] : []
        ),
        // `swift package plist-migrate …` in any package that depends on this one, Linux included:
        // the read-only commands, no permission asked; a command line that writes is refused.
        .plugin(
            name: "PlistMigratePlugin",
            capability: .command(
                intent: .custom(verb: "plist-migrate", description: "Check, lint or explain the ATS settings of the package's plists (writes nothing)")),
            dependencies: ["plist-migrate"]),
        // `swift package --allow-writing-to-package-directory plist-migrate-write --write …`: the
        // same commands, allowed to write once SwiftPM has the permission.
        .plugin(
            name: "PlistMigrateWritePlugin",
            capability: .command(
                intent: .custom(verb: "plist-migrate-write", description: "Migrate (write) the ATS settings of the package's plists"),
                permissions: [.writeToPackageDirectory(reason: "plist-migrate rewrites the package's Info.plist files in place")]),
            dependencies: ["plist-migrate"]),
        // A build-tool plugin: `plugins: [.plugin(name: "PlistLintPlugin", package: "plist-migrate")]`
        // on a target lints its plists on every build (Xcode's issue navigator, `swift build`).
        .plugin(name: "PlistLintPlugin", capability: .buildTool(), dependencies: ["plist-migrate"]),
        // Fuzz/run.sh builds this with libFuzzer; a plain build replays inputs given as arguments.
        .executableTarget(name: "PlistFuzz", dependencies: ["PlistMigrate", "Project", "FileAccess", "Migrations", "PlistDOM"], path: "Fuzz/PlistFuzz"),
        .testTarget(name: "PlistDOMTests", dependencies: ["PlistDOM"]),
        .testTarget(name: "MigrationsTests", dependencies: ["Migrations", "PlistDOM", "PlistMigrate"]),
        .testTarget(name: "ATSPolicyTests", dependencies: ["ATSPolicy", "PlistDOM"]),
        .testTarget(name: "PlistMigrateTests", dependencies: ["PlistMigrate", "Project", "FileAccess", "Migrations", "PlistDOM", .product(name: "Yams", package: "Yams")]),
    ]
)
