// Elementwise chain on tensors (scale, exp, add, ReLU) bufferized, then
// mapped to GPU with upstream's parallel-loop path: every linalg op
// becomes a gpu.launch between host memref.alloc/dealloc.
//
// Upstream pipeline (mlir-opt 22): --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref --convert-linalg-to-parallel-loops --gpu-map-parallel-loops --convert-parallel-loops-to-gpu

// RUN: memsched-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --convert-bufferization-to-memref --convert-linalg-to-parallel-loops --gpu-map-parallel-loops --convert-parallel-loops-to-gpu \
// RUN: | tee %t.memref.mlir \
// RUN: | memsched-opt --memsched-schedule=remarks --memsched-verify --mlir-print-op-on-diagnostic=false -o %t.sched.mlir 2>&1 \
// RUN: | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CERT < %t.sched.mlir

// ===== What memsched does today: the one place this case pins it. =====
// Update these lines when support changes (and test/Pipelines/README.md).
// REMARK: remark: memsched-schedule: peak 49152 -> 32768 bytes, lower bound 32768 bytes (optimal)
// CERT-LABEL: func.func @chain(
// CERT-SAME: memsched.certificate = #memsched.certificate<peak = 32768, lower_bound = 32768{{[,>]}}
// ===== End of expectations. =====

func.func @chain(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %a = linalg.exp ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = linalg.mul ins(%y, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = linalg.max ins(%c, %f : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
