#!/usr/bin/env bash
# Time and peak memory of `targets` over three large project shapes of issue #51: a 30 MB
# project.pbxproj of file references and build files, 200,000 targets sharing one
# configuration list, and 1,000,000 tiny objects (each just under the 32 MiB read limit).
# Goal for the 30 MB project: under 1 s and under 150 MB.
# usage: Benchmarks/large-projects.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product plist-migrate >/dev/null
bin=$(swift build -c release --show-bin-path)/plist-migrate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
root = sys.argv[1]
def project(name, objects, tail):
    os.makedirs(f"{root}/{name}/App.xcodeproj", exist_ok=True)
    with open(f"{root}/{name}/App.xcodeproj/project.pbxproj", "w") as f:
        f.write("// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 56; objects = {\n")
        f.writelines(objects)
        f.write(tail + "\n}; rootObject = P1; }\n")
n = 85000
files = [f"\t\tB{i:022X} /* File{i}.swift in Sources */ = {{isa = PBXBuildFile; fileRef = F{i:022X} /* File{i}.swift */; }};\n" for i in range(n)]
files += [f"\t\tF{i:022X} /* File{i}.swift */ = {{isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = File{i}.swift; sourceTree = \"<group>\"; }};\n" for i in range(n)]
children = "".join(f"\t\t\t\tF{i:022X} /* File{i}.swift */,\n" for i in range(n))
project("files-30MB", files, "G1 = {isa = PBXGroup; children = (\n" + children + "); sourceTree = \"<group>\"; };\n"
        "T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productType = \"com.apple.product-type.application\"; };\n"
        "P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1); };\n"
        "L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };\nL2 = {isa = XCConfigurationList; buildConfigurations = (C2); };\n"
        "C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 15.0; }; };\n"
        "C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; }; };")
ids = [f"T{i:07d}" for i in range(200000)]
project("targets-200k", [f"{t} = {{isa = PBXNativeTarget; buildConfigurationList = L2; name = {t}; productType = \"com.apple.product-type.framework\"; }};\n" for t in ids],
        "P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (" + ", ".join(ids) + "); };\n"
        "G1 = {isa = PBXGroup; children = (); sourceTree = \"<group>\"; };\n"
        "L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };\nL2 = {isa = XCConfigurationList; buildConfigurations = (C2); };\n"
        "C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 15.0; SDKROOT = iphoneos; }; };\n"
        "C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = \"$(TARGET_NAME)/Info.plist\"; }; };")
project("tiny-1M", [f"O{i:06X}={{isa=PBXFileReference;}};\n" for i in range(1000000)],
        "P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = O000000; targets = (); };\n"
        "L1 = {isa = XCConfigurationList; buildConfigurations = (); };")
PY
for shape in files-30MB targets-200k tiny-1M; do
  size=$(wc -c < "$work/$shape/App.xcodeproj/project.pbxproj")
  /usr/bin/time -f "$shape ($size bytes): %e s wall, %U s user, %M KB peak" "$bin" targets "$work/$shape" > /dev/null
done
