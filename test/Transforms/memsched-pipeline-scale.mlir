// Tests that the pipeline's certificate checks on the body it is attached
// to at scale: on this 20,000-op generated program the bound was proved on
// the order as written (a forward cut) and attached to the scheduled body,
// where the bound procedure alone, within its work budget, proves less. The
// certificate names the op whose cut proves it; --memsched-verify (run by
// the pipeline) proves that cut again, exactly, on the scheduled body.
// RUN: python3 %memsched_src_root/bench/synthetic.py --ops 20000 --seed 1 > %t.mlir
// RUN: memsched-opt %t.mlir --memsched-pipeline -o %t.out.mlir
// RUN: FileCheck %s < %t.out.mlir
// RUN: memsched-opt %t.out.mlir --memsched-verify -o /dev/null
// CHECK: #memsched.certificate<peak = {{[0-9]+}}, lower_bound = {{[0-9]+}}, bound_kind = "forward", bound_op = "linalg.add#{{[0-9]+}}", cut = [{{[0-9, ]+}}]>
