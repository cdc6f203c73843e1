"""Runs `fuser-opt INPUT --pass-pipeline=P` with P nested DEPTH levels deep
(`builtin.module(a.b(a.b(...)))`): used by malformed_nesting.test, since a
pipeline this long cannot be written in a RUN line.
usage: deep_pipeline.py FUSER_OPT INPUT DEPTH"""
import subprocess
import sys

fuser_opt, path, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
pipeline = "builtin.module(" + "a.b(" * depth + ")" * depth + ")"
sys.exit(subprocess.call([fuser_opt, path, "--pass-pipeline=" + pipeline]))
