# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MEMSCHED"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lib", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.memsched_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%memsched_src_root", config.memsched_src_root))
config.substitutions.append(("%mlir_lib_dir", config.llvm_lib_dir))
config.substitutions.append(
    ("%memsched_runtime", os.path.join(config.memsched_lib_dir, "libmemsched_runtime.so")))
# Differential execution before/after --memsched-schedule (see the script).
# The bare word mlir-runner is resolved by the tool substitution below (so
# --param mlir-runner=... reaches the script too).
config.substitutions.append(
    ("%differential", "bash %s %s %s mlir-runner" % (
        os.path.join(config.memsched_src_root, "test", "Integration", "differential.sh"),
        os.path.join(config.memsched_lib_dir, "libmemsched_runtime.so"),
        config.llvm_lib_dir)))
# Runtime proof of --memsched-plan-arena on a scheduled program.
config.substitutions.append(
    ("%arena_run", "bash %s %s %s mlir-runner" % (
        os.path.join(config.memsched_src_root, "test", "Integration", "arena-run.sh"),
        os.path.join(config.memsched_lib_dir, "libmemsched_runtime.so"),
        config.llvm_lib_dir)))
config.substitutions.append(
    ("%memsched_plugin", os.path.join(config.memsched_lib_dir, "libMemSchedPlugin.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.memsched_tools_dir, config.llvm_tools_dir]
tools = ["memsched-opt", "memsched-arena", "memsched-graph-bench", "memsched-bound-bench", "memsched-remat-bench", "mlir-opt", "mlir-runner", "FileCheck", "not", "count", "split-file"]
llvm_config.add_tool_substitutions(
    [ToolSubst(t, unresolved="ignore") for t in tools], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.memsched_tools_dir, append_path=True)

if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")):
    config.available_features.add("mlir-runner")

# The long runs (scripts/test-long.sh, MEMSCHED_LONG_TESTS=1): the largest
# corpus programs executed under mlir-runner (10-15 s each at -O0); without
# it their static checks run and their executions are skipped (%if long).
if os.environ.get("MEMSCHED_LONG_TESTS", "0") not in ("", "0"):
    config.available_features.add("long")
