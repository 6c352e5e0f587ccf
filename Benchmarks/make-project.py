#!/usr/bin/env python3
"""Writes a deterministic large Xcode project for `plist-migrate targets`: FILES source files
(a build file and a file reference each, all in one group) and TARGETS native targets, each with
its own Info.plist and deployment target, sharing one project-level configuration list.

usage: make-project.py OUT_DIR [FILES] [TARGETS]
"""
import os, sys

out = sys.argv[1]
files = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
targets = int(sys.argv[3]) if len(sys.argv) > 3 else 400
os.makedirs(f"{out}/App.xcodeproj", exist_ok=True)
objects = []
for i in range(files):
    objects.append(f"\t\tB{i:022X} /* File{i}.swift in Sources */ = {{isa = PBXBuildFile; fileRef = F{i:022X} /* File{i}.swift */; }};\n")
    objects.append(f"\t\tF{i:022X} /* File{i}.swift */ = {{isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = File{i}.swift; sourceTree = \"<group>\"; }};\n")
children = "".join(f"\t\t\t\tF{i:022X} /* File{i}.swift */,\n" for i in range(files))
objects.append("\t\tG1 = {isa = PBXGroup; children = (\n" + children + "\t\t\t); sourceTree = \"<group>\"; };\n")
ids = []
for t in range(targets):
    ids.append(f"T{t:05d}")
    objects.append(f"\t\tT{t:05d} = {{isa = PBXNativeTarget; buildConfigurationList = L{t:05d}; name = Module{t}; productType = \"com.apple.product-type.framework\"; }};\n")
    objects.append(f"\t\tL{t:05d} = {{isa = XCConfigurationList; buildConfigurations = (D{t:05d}, R{t:05d}); }};\n")
    for kind, name in (("D", "Debug"), ("R", "Release")):
        objects.append(f"\t\t{kind}{t:05d} = {{isa = XCBuildConfiguration; name = {name}; buildSettings = {{ "
                       f"INFOPLIST_FILE = \"Module{t}/Info.plist\"; IPHONEOS_DEPLOYMENT_TARGET = {12 + t % 6}.0; "
                       f"PRODUCT_BUNDLE_IDENTIFIER = \"com.example.module{t}\"; }}; }};\n")
    os.makedirs(f"{out}/Module{t}", exist_ok=True)
    with open(f"{out}/Module{t}/Info.plist", "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
                '\t<key>CFBundleIdentifier</key>\n\t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>\n</dict>\n</plist>\n')
objects.append("\t\tP1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (" + ", ".join(ids) + "); };\n")
objects.append("\t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1); };\n")
objects.append("\t\tC1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { SDKROOT = iphoneos; }; };\n")
with open(f"{out}/App.xcodeproj/project.pbxproj", "w") as f:
    f.write("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {\n")
    f.writelines(objects)
    f.write("\t};\n\trootObject = P1;\n}\n")
