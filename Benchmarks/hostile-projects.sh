#!/usr/bin/env bash
# Time and peak memory of a run over each hostile project shape (target: each
# under 1 s and 100 MB, exit 0, a one-line note on the file beside the project).
# usage: Benchmarks/hostile-projects.sh
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build >/dev/null
bin=$(swift build -c release --show-bin-path)/plist-migrate
info=$PWD/Fixtures/project/App/Info.plist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
pbx() { # dir, settings text for the target config, optional baseConfigurationReference line
mkdir -p $1/App.xcodeproj $1/App; cp "$info" $1/App/Info.plist
cat > $1/App.xcodeproj/project.pbxproj <<PBX
// !\$*UTF8*\$!
{ archiveVersion = 1; objectVersion = 56; objects = {
  F1 = {isa = PBXFileReference; path = $3; sourceTree = "<group>"; };
  G1 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
  T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App; productName = App; productType = "com.apple.product-type.application"; };
  P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; projectDirPath = ""; targets = (T1); };
  L1 = {isa = XCConfigurationList; buildConfigurations = (C1); };
  L2 = {isa = XCConfigurationList; buildConfigurations = (C2); };
  C1 = {isa = XCBuildConfiguration; name = Release; buildSettings = { IPHONEOS_DEPLOYMENT_TARGET = 12.0; }; };
  C2 = {isa = XCBuildConfiguration; name = Release; $4 buildSettings = { $2 }; };
}; rootObject = P1; }
PBX
}
pbx selfdouble 'A = "$(A)$(A)"; INFOPLIST_FILE = "App/Info.plist$(A)";' none.xcconfig ''
s=''; for i in $(seq 1 20); do s="$s V$i = \"\$(V$((i+1)))\$(V$((i+1)))\";"; done
pbx chain20 "$s V21 = x; INFOPLIST_FILE = \"App/Info.plist\"; IPHONEOS_DEPLOYMENT_TARGET = \"\$(V1)\";" none.xcconfig ''
pbx xcselfdouble 'INFOPLIST_FILE = App/Info.plist;' a.xcconfig 'baseConfigurationReference = F1;'
printf 'A = $(A)$(A)\nIPHONEOS_DEPLOYMENT_TARGET = $(A)\n' > xcselfdouble/a.xcconfig
pbx selfinclude 'INFOPLIST_FILE = App/Info.plist;' a.xcconfig 'baseConfigurationReference = F1;'
printf '#include "./a.xcconfig"\nIPHONEOS_DEPLOYMENT_TARGET = 13.0\n' > selfinclude/a.xcconfig
pbx deepinclude 'INFOPLIST_FILE = App/Info.plist;' c0.xcconfig 'baseConfigurationReference = F1;'
for i in $(seq 0 9999); do printf '#include "c%d.xcconfig"\nS%d = %d\n' $((i+1)) $i $i > deepinclude/c$i.xcconfig; done
printf 'IPHONEOS_DEPLOYMENT_TARGET = 13.0\n' > deepinclude/c10000.xcconfig
pbx symloop 'INFOPLIST_FILE = App/Info.plist;' a.xcconfig 'baseConfigurationReference = F1;'
mkdir -p symloop/d; ln -s ../d symloop/d/loop
printf '#include "d/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/loop/x.xcconfig"\n' > symloop/a.xcconfig
# XcodeGen: nested aliases (billion laughs) and a 20 MB spec
mkdir -p yamlbomb/App; cp "$info" yamlbomb/App/Info.plist
cat > yamlbomb/project.yml <<'Y'
name: App
a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
targets:
  App: {type: application, platform: iOS, info: {path: App/Info.plist}, deploymentTarget: "13.0"}
Y
mkdir -p yamlbig/App; cp "$info" yamlbig/App/Info.plist
python3 - <<'PY'
with open('yamlbig/project.yml','w') as f:
    f.write('name: App\ntargets:\n  App: {type: application, platform: iOS, info: {path: App/Info.plist}, deploymentTarget: "13.0"}\nsettings:\n')
    i=0
    while f.tell() < 20*1024*1024:
        f.write(f'  KEY_{i}: "value number {i} of a long project"\n'); i+=1
PY
mkdir -p aliaskey/App; cp "$info" aliaskey/App/; head -10 yamlbomb/project.yml > aliaskey/project.yml; echo '*i: 1' >> aliaskey/project.yml
printf '%-14s %8s %10s %5s  %s\n' shape seconds "max KB" exit note
for shape in selfdouble chain20 xcselfdouble selfinclude deepinclude symloop yamlbomb aliaskey yamlbig; do
    (cd "$shape" && /usr/bin/time -f '%e %M %x' -o ../time.txt "$bin" --no-config . >/dev/null 2>../err.txt) || true
    read -r seconds kb status < time.txt
    note=$(grep -v 'ATS010 held back' err.txt | grep 'note:' | head -1 | cut -c1-100)
    printf '%-14s %8s %10s %5s  %s\n' "$shape" "$seconds" "$kb" "$status" "$note"
done
