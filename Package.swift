// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "zaoan",
    products: [
        .executable(name: "zaoan", targets: ["zaoan"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(name: "CLinux"),
        .target(name: "ZaoanCore"),
        .target(name: "ZaoanServer", dependencies: ["ZaoanCore", "CSystemd", "CLinux"]),
        .executableTarget(name: "zaoan", dependencies: ["ZaoanCore", "ZaoanServer"]),
        .executableTarget(name: "zaoan-bench"),
        .testTarget(name: "ZaoanCoreTests", dependencies: ["ZaoanCore"]),
        .testTarget(name: "ZaoanServerTests", dependencies: ["ZaoanServer", "zaoan"]),
    ]
)
