import PlistDOM
