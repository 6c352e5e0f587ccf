#!/usr/bin/env bash
# Time and peak memory of `targets` over large and hostile project shapes: a 30 MB
# project.pbxproj of file references and build files, 197,000 file references in one group
# (29 MB), 200,000 targets sharing one configuration list, 1,000,000 tiny objects (each just
# under the 32 MiB read limit), and an xcconfig of 10,000 lines doubling `$(inherited)`.
# Goal for the large projects: under 1 s and under 150 MB each.
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
# 197,000 file references in one group (29 MB), the shape of a large real app's project.
refs = [f"\t\tF{i:022X} = {{isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; path = S{i}.m; sourceTree = \"<group>\"; }};\n" for i in range(197000)]
project("filerefs-197k", refs, "G1 = {isa = PBXGroup; children = (\n" + "".join(f"\t\t\t\tF{i:022X},\n" for i in range(197000)) + "); sourceTree = \"<group>\"; };\n"
        "T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productType = \"com.apple.product-type.application\"; };\n"
        "P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1); };\n"
        "L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };\nL2 = {isa = XCConfigurationList; buildConfigurations = (C2); };\n"
        "C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 15.0; }; };\n"
        "C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; }; };")
# An xcconfig of 10,000 lines that each double the setting before them (`$(inherited) $(inherited)`).
project("xcconfig-doubling", ["X1 = {isa = PBXFileReference; path = Doubling.xcconfig; sourceTree = \"<group>\"; };\n"],
        "G1 = {isa = PBXGroup; children = (X1); sourceTree = \"<group>\"; };\n"
        "T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productType = \"com.apple.product-type.application\"; };\n"
        "P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1); };\n"
        "L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };\nL2 = {isa = XCConfigurationList; buildConfigurations = (C2); };\n"
        "C1 = {isa = XCBuildConfiguration; baseConfigurationReference = X1; name = Release; buildSettings = { }; };\n"
        "C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = { INFOPLIST_FILE = App/Info.plist; }; };")
with open(f"{root}/xcconfig-doubling/Doubling.xcconfig", "w") as f:
    f.write("IPHONEOS_DEPLOYMENT_TARGET = 15.0\n" + "IPHONEOS_DEPLOYMENT_TARGET = $(inherited) $(inherited)\n" * 10000)
project("tiny-1M", [f"O{i:06X}={{isa=PBXFileReference;}};\n" for i in range(1000000)],
        "P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = O000000; targets = (); };\n"
        "L1 = {isa = XCConfigurationList; buildConfigurations = (); };")
PY
for shape in files-30MB filerefs-197k targets-200k tiny-1M xcconfig-doubling; do
  size=$(wc -c < "$work/$shape/App.xcodeproj/project.pbxproj")
  /usr/bin/time -f "$shape ($size bytes): %e s wall, %U s user, %M KB peak" "$bin" targets "$work/$shape" > /dev/null
done
