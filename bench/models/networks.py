"""Network definitions for the bench/models corpus.

`SPECS` maps a corpus name to a `Spec` whose build() returns
(fn, arg_names, example_inputs, source) for export.py. torchvision models are
taken as published (random weights); the others are written here from their
public architecture descriptions:

  * MLPerf Tiny v1.0 reference models (github.com/mlcommons/tiny, the Keras
    definitions in benchmark/training/*): ResNet-8 (image classification,
    CIFAR-10 32x32), DS-CNN (keyword spotting, 49x10 MFCC), MobileNetV1 0.25
    (visual wake words, 96x96), the FC autoencoder (anomaly detection, 640
    inputs).
  * RandWire (Xie et al. 2019): a small Watts-Strogatz random graph network
    generated with a fixed seed.
  * A small HRNet-style network (Wang et al. 2019): parallel resolution
    branches advanced block by block across branches, with exchange units.
  * A transformer encoder block (post-norm, as torch.nn.TransformerEncoderLayer)
    written out with explicit matmuls, softmax and layer norm.
  * SGD training steps (forward + loss + backward + update): a small CNN
    without batch norm, ResNet-8, a CIFAR ResNet-20, a MobileNetV2-style
    network, a 4-block transformer encoder and a reduced U-Net, the
    batch-norm ones with batch statistics (training mode).
  * A small U-Net (Ronneberger et al. 2015, in the bilinear-upsampling form
    of the common PyTorch re-implementations): 3 pooling levels, the decoder
    concatenates the encoder's skip connections.
  * A two-tower network: two convolutional towers on two inputs (an RGB image
    and a one-channel map), merged by concatenation, then a shared head.
"""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from functorch import grad_and_value
from torch.nn.utils.stateless import functional_call

# ===----------------------------------------------------------------------===#
# MLPerf Tiny
# ===----------------------------------------------------------------------===#


def conv_bn(cin, cout, k, stride=1, padding=None, groups=1):
    padding = k // 2 if padding is None else padding
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, padding, groups=groups, bias=True),
                         nn.BatchNorm2d(cout))


class TinyResBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = conv_bn(cin, cout, 3, stride)
        self.conv2 = conv_bn(cout, cout, 3)
        self.shortcut = nn.Conv2d(cin, cout, 1, stride) if stride != 1 or cin != cout else None

    def forward(self, x):
        y = self.conv2(F.relu(self.conv1(x)))
        s = self.shortcut(x) if self.shortcut is not None else x
        return F.relu(y + s)


class ResNet8(nn.Module):
    """MLPerf Tiny image classification: ResNet-8 for CIFAR-10 (32x32x3)."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = conv_bn(3, 16, 3)
        self.stack1 = TinyResBlock(16, 16, 1)
        self.stack2 = TinyResBlock(16, 32, 2)
        self.stack3 = TinyResBlock(32, 64, 2)
        self.fc = nn.Linear(64, classes)

    def forward(self, x):
        x = F.relu(self.stem(x))
        x = self.stack3(self.stack2(self.stack1(x)))
        x = F.avg_pool2d(x, 8)
        return self.fc(torch.flatten(x, 1))


class DSCNN(nn.Module):
    """MLPerf Tiny keyword spotting: DS-CNN (input 1x49x10 MFCC, 12 classes)."""

    def __init__(self, classes=12, ch=64, blocks=4):
        super().__init__()
        # Keras 'same' padding for a 10x4 kernel, stride 2 on 49x10: (4,5) x (1,1).
        self.pad = nn.ZeroPad2d((1, 1, 4, 5))
        self.stem = conv_bn(1, ch, (10, 4), 2, padding=0)
        self.blocks = nn.ModuleList()
        for _ in range(blocks):
            self.blocks.append(nn.ModuleList([conv_bn(ch, ch, 3, groups=ch), conv_bn(ch, ch, 1)]))
        self.fc = nn.Linear(ch, classes)

    def forward(self, x):
        x = F.relu(self.stem(self.pad(x)))
        for dw, pw in self.blocks:
            x = F.relu(pw(F.relu(dw(x))))
        x = F.dropout(x, 0.4, self.training)
        x = F.avg_pool2d(x, (25, 5))
        return self.fc(torch.flatten(x, 1))


class MobileNetV1(nn.Module):
    """MLPerf Tiny visual wake words: MobileNetV1, width 0.25, 96x96x3, 2 classes."""

    CFG = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2),
           (512, 1), (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]

    def __init__(self, alpha=0.25, classes=2):
        super().__init__()
        c = int(32 * alpha)
        self.stem = conv_bn(3, c, 3, 2)
        self.blocks = nn.ModuleList()
        for cout, s in self.CFG:
            cout = int(cout * alpha)
            self.blocks.append(nn.ModuleList([conv_bn(c, c, 3, s, groups=c), conv_bn(c, cout, 1)]))
            c = cout
        self.fc = nn.Linear(c, classes)

    def forward(self, x):
        x = F.relu6(self.stem(x))
        for dw, pw in self.blocks:
            x = F.relu6(pw(F.relu6(dw(x))))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


class FCAutoencoder(nn.Module):
    """MLPerf Tiny anomaly detection: FC autoencoder, 640 -> 8 -> 640."""

    def __init__(self, n=640, hidden=128, bottleneck=8):
        super().__init__()
        dims = [n, hidden, hidden, hidden, hidden, bottleneck,
                hidden, hidden, hidden, hidden]
        self.layers = nn.ModuleList()
        for a, b in zip(dims, dims[1:]):
            self.layers.append(nn.ModuleList([nn.Linear(a, b), nn.BatchNorm1d(b)]))
        self.out = nn.Linear(hidden, n)

    def forward(self, x):
        for lin, bn in self.layers:
            x = F.relu(bn(lin(x)))
        return self.out(x)


# ===----------------------------------------------------------------------===#
# RandWire
# ===----------------------------------------------------------------------===#


def watts_strogatz_dag(n, k, p, seed):
    """Edges (i, j), i < j, of a WS(n, k, p) graph oriented by node index."""
    rng = random.Random(seed)
    edges = set()
    for i in range(n):
        for j in range(1, k // 2 + 1):
            edges.add((i, (i + j) % n))
    for i in range(n):
        for j in range(1, k // 2 + 1):
            e = (i, (i + j) % n)
            if rng.random() < p and e in edges:
                choices = [v for v in range(n) if v != i and (i, v) not in edges
                           and (v, i) not in edges]
                if choices:
                    edges.discard(e)
                    edges.add((i, rng.choice(choices)))
    return sorted({(min(a, b), max(a, b)) for a, b in edges})


class RandWireNode(nn.Module):
    """Sum of inputs -> ReLU -> separable 3x3 conv -> BN."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, inputs):
        x = inputs[0]
        for y in inputs[1:]:
            x = x + y
        return self.bn(self.pw(self.dw(F.relu(x))))


class RandWireStage(nn.Module):
    def __init__(self, cin, cout, nodes, seed):
        super().__init__()
        self.edges = watts_strogatz_dag(nodes, 4, 0.75, seed)
        self.preds = {j: [i for i, jj in self.edges if jj == j] for j in range(nodes)}
        has_succ = {i for i, _ in self.edges}
        self.outputs = [j for j in range(nodes) if j not in has_succ]
        self.nodes = nn.ModuleList(
            RandWireNode(cin if not self.preds[j] else cout, cout, 2 if not self.preds[j] else 1)
            for j in range(nodes))

    def forward(self, x):
        vals = {}
        for j, node in enumerate(self.nodes):
            vals[j] = node([x] if not self.preds[j] else [vals[i] for i in self.preds[j]])
        out = vals[self.outputs[0]]
        for j in self.outputs[1:]:
            out = out + vals[j]
        return out / len(self.outputs)


class RandWireSmall(nn.Module):
    """RandWire-WS(4, 0.75), small regime, 2 random stages of 8 nodes, seed 1."""

    def __init__(self, classes=10, c=32, nodes=8, seed=1):
        super().__init__()
        self.stem = conv_bn(3, c // 2, 3, 2)
        self.stage1 = RandWireStage(c // 2, c, nodes, seed)
        self.stage2 = RandWireStage(c, 2 * c, nodes, seed + 1)
        self.head = conv_bn(2 * c, 128, 1)
        self.fc = nn.Linear(128, classes)

    def forward(self, x):
        x = self.stage2(self.stage1(self.stem(x)))
        x = F.relu(self.head(F.relu(x)))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


# ===----------------------------------------------------------------------===#
# HRNet-style multi-branch network
# ===----------------------------------------------------------------------===#


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = conv_bn(c, c, 3)
        self.conv2 = conv_bn(c, c, 3)

    def forward(self, x):
        return F.relu(self.conv2(F.relu(self.conv1(x))) + x)


class Exchange(nn.Module):
    """HRNet fuse layer: output i = relu(sum_j resample_j->i(x_j))."""

    def __init__(self, in_chans, out_chans):
        super().__init__()
        self.n_in, self.n_out = len(in_chans), len(out_chans)
        self.paths = nn.ModuleDict()
        for i, ci in enumerate(out_chans):
            for j, cj in enumerate(in_chans):
                if j > i:  # lower resolution: 1x1 conv + BN, then nearest upsample
                    self.paths[f"{j}_{i}"] = conv_bn(cj, ci, 1)
                elif j < i:  # higher resolution: (i - j) strided 3x3 conv + BN
                    layers, c = [], cj
                    for k in range(i - j):
                        last = k == i - j - 1
                        cout = ci if last else c
                        layers += [conv_bn(c, cout, 3, 2)] + ([] if last else [nn.ReLU()])
                        c = cout
                    self.paths[f"{j}_{i}"] = nn.Sequential(*layers)

    def forward(self, xs):
        outs = []
        for i in range(self.n_out):
            y = None
            for j, x in enumerate(xs):
                if j == i:
                    t = x
                else:
                    t = self.paths[f"{j}_{i}"](x)
                    if j > i:
                        t = F.interpolate(t, scale_factor=2 ** (j - i), mode="nearest")
                y = t if y is None else y + t
            outs.append(F.relu(y))
        return outs


class HRStage(nn.Module):
    """Branches advanced one block at a time across all branches (the order a
    layer-by-layer framework executes them), then an exchange unit."""

    def __init__(self, chans, blocks, out_chans):
        super().__init__()
        self.branches = nn.ModuleList(
            nn.ModuleList(BasicBlock(c) for _ in range(blocks)) for c in chans)
        self.exchange = Exchange(chans, out_chans)
        self.blocks = blocks

    def forward(self, xs):
        xs = list(xs)
        for k in range(self.blocks):
            for i, br in enumerate(self.branches):
                xs[i] = br[k](xs[i])
        return self.exchange(xs)


class HRNetSmall(nn.Module):
    """Stem (stride 4) -> stage2 (2 branches) -> stage3 (3 branches) -> head
    that upsamples all branches, concatenates and classifies per pixel."""

    def __init__(self, c=16, classes=8):
        super().__init__()
        self.stem1 = conv_bn(3, 32, 3, 2)
        self.stem2 = conv_bn(32, c, 3, 2)
        self.down1 = conv_bn(c, 2 * c, 3, 2)
        self.stage2 = HRStage([c, 2 * c], 2, [c, 2 * c, 4 * c])
        self.stage3 = HRStage([c, 2 * c, 4 * c], 2, [c, 2 * c, 4 * c])
        self.head = conv_bn(7 * c, 7 * c, 1)
        self.cls = nn.Conv2d(7 * c, classes, 1)

    def forward(self, x):
        x = F.relu(self.stem2(F.relu(self.stem1(x))))
        xs = [x, F.relu(self.down1(x))]
        xs = self.stage2(xs)
        xs = self.stage3(xs)
        up = [xs[0]] + [F.interpolate(t, scale_factor=2 ** i, mode="bilinear",
                                      align_corners=False) for i, t in enumerate(xs[1:], 1)]
        return self.cls(F.relu(self.head(torch.cat(up, 1))))


# ===----------------------------------------------------------------------===#
# Transformer encoder block
# ===----------------------------------------------------------------------===#


class EncoderBlock(nn.Module):
    """Post-norm encoder layer (as nn.TransformerEncoderLayer, ReLU MLP),
    written out so tracing does not take PyTorch's fused fast path."""

    def __init__(self, d=128, heads=4, ff=512):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x):  # x: [S, D]
        s, d = x.shape
        dh = d // self.h

        def heads(t):
            return t.view(s, self.h, dh).transpose(0, 1)  # [H, S, dh]
        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        att = torch.softmax(torch.bmm(q, k.transpose(1, 2)) * dh ** -0.5, dim=-1)
        ctx = torch.bmm(att, v).transpose(0, 1).reshape(s, d)
        x = self.ln1(x + self.o(ctx))
        return self.ln2(x + self.ff2(F.relu(self.ff1(x))))


# ===----------------------------------------------------------------------===#
# U-Net and two-tower (multi-branch, long-lived skip buffers)
# ===----------------------------------------------------------------------===#


class DoubleConv(nn.Module):
    """(3x3 conv, BN, ReLU) twice, the U-Net block."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = conv_bn(cin, cout, 3)
        self.conv2 = conv_bn(cout, cout, 3)

    def forward(self, x):
        return F.relu(self.conv2(F.relu(self.conv1(x))))


class UNetSmall(nn.Module):
    """U-Net with 3 pooling levels (64 -> 32 -> 16 -> 8 for a 64x64 input):
    encoder blocks at widths c, 2c, 4c, a 4c bottleneck at 1/8 resolution;
    each decoder step upsamples bilinearly (align_corners=True, no transposed
    conv), concatenates the skip of the same resolution and runs a DoubleConv;
    a 1x1 conv gives per-pixel class scores."""

    def __init__(self, c=8, classes=2):
        super().__init__()
        self.enc1 = DoubleConv(3, c)
        self.enc2 = DoubleConv(c, 2 * c)
        self.enc3 = DoubleConv(2 * c, 4 * c)
        self.mid = DoubleConv(4 * c, 4 * c)
        self.dec3 = DoubleConv(8 * c, 2 * c)
        self.dec2 = DoubleConv(4 * c, c)
        self.dec1 = DoubleConv(2 * c, c)
        self.out = nn.Conv2d(c, classes, 1)

    @staticmethod
    def up(x, skip):
        x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)
        return torch.cat([skip, x], 1)

    def forward(self, x):
        s1 = self.enc1(x)
        s2 = self.enc2(F.max_pool2d(s1, 2))
        s3 = self.enc3(F.max_pool2d(s2, 2))
        y = self.mid(F.max_pool2d(s3, 2))
        y = self.dec3(self.up(y, s3))
        y = self.dec2(self.up(y, s2))
        y = self.dec1(self.up(y, s1))
        return self.out(y)


class TwoTower(nn.Module):
    """Two convolutional towers on two inputs, merged by concatenation.

    Tower a (RGB, 3x64x64) downsamples at once with strided convs (16, 32, 64
    channels at 32, 16, 8); tower b (one channel, 1x64x64, e.g. depth) keeps
    full resolution longer (5x5 conv, 8 channels at 64x64, then 3x3 convs
    between 2x2 max pools: 16 at 32x32, 32 at 16x16, pooled to 8x8). The 8x8
    maps (64 + 32 channels) are concatenated; the head is a 1x1 and a 3x3
    conv, global average pool and a linear layer."""

    def __init__(self, classes=10):
        super().__init__()
        self.a1 = conv_bn(3, 16, 3, 2)
        self.a2 = conv_bn(16, 16, 3)
        self.a3 = conv_bn(16, 32, 3, 2)
        self.a4 = conv_bn(32, 32, 3)
        self.a5 = conv_bn(32, 64, 3, 2)
        self.b1 = conv_bn(1, 8, 5)
        self.b2 = conv_bn(8, 16, 3)
        self.b3 = conv_bn(16, 32, 3)
        self.head1 = conv_bn(96, 64, 1)
        self.head2 = conv_bn(64, 64, 3)
        self.fc = nn.Linear(64, classes)

    def forward(self, rgb, depth):
        a = rgb
        for layer in (self.a1, self.a2, self.a3, self.a4, self.a5):
            a = F.relu(layer(a))
        b = F.relu(self.b1(depth))
        b = F.relu(self.b2(F.max_pool2d(b, 2)))
        b = F.relu(self.b3(F.max_pool2d(b, 2)))
        b = F.max_pool2d(b, 2)
        y = F.relu(self.head2(F.relu(self.head1(torch.cat([a, b], 1)))))
        y = F.adaptive_avg_pool2d(y, 1)
        return self.fc(torch.flatten(y, 1))


# ===----------------------------------------------------------------------===#
# Training step
# ===----------------------------------------------------------------------===#


class SmallCNN(nn.Module):
    """Conv(3->16)-ReLU-Conv(16->32,s2)-ReLU-Conv(32->64,s2)-ReLU-FC(10), no BN."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.c3 = nn.Conv2d(32, 64, 3, stride=2, padding=1)
        self.fc = nn.Linear(64 * 8 * 8, 10)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.relu(self.c2(x))
        x = F.relu(self.c3(x))
        return self.fc(torch.flatten(x, 1))


class CifarBlock(nn.Module):
    """ResNet basic block for CIFAR (He et al. 2016, section 4.2): two 3x3
    conv-BN, identity shortcut; when the shape changes, option A (parameter
    free): subsample by 2 and zero-pad the new channels."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.pad = (cout - cin) // 2 if stride != 1 or cin != cout else None

    def forward(self, x):
        y = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        if self.pad is not None:
            x = F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, self.pad, self.pad))
        return F.relu(y + x)


class ResNet20(nn.Module):
    """CIFAR ResNet-20: 3x3 conv 16, 3 stages x 3 basic blocks (16/32/64
    channels, stride 2 at the start of stages 2 and 3, option-A shortcuts),
    global average pool, FC 10."""

    def __init__(self, classes=10, blocks=3):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        layers, c = [], 16
        for cout, stride in ((16, 1), (32, 2), (64, 2)):
            for k in range(blocks):
                layers.append(CifarBlock(c, cout, stride if k == 0 else 1))
                c = cout
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(64, classes)

    def forward(self, x):
        x = self.layers(F.relu(self.bn(self.conv(x))))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


class InvertedResidual(nn.Module):
    """MobileNetV2 block: 1x1 expand (t), 3x3 depthwise (stride s), 1x1
    linear projection, each with BN; ReLU6 after the first two; residual
    when the shape is kept."""

    def __init__(self, cin, cout, stride, t):
        super().__init__()
        mid = cin * t
        self.expand = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False),
                                    nn.BatchNorm2d(mid)) if t != 1 else None
        self.dw = nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False)
        self.bn_dw = nn.BatchNorm2d(mid)
        self.project = nn.Conv2d(mid, cout, 1, bias=False)
        self.bn_project = nn.BatchNorm2d(cout)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = F.relu6(self.expand(x)) if self.expand is not None else x
        y = F.relu6(self.bn_dw(self.dw(y)))
        y = self.bn_project(self.project(y))
        return x + y if self.residual else y


class MobileNetV2Small(nn.Module):
    """MobileNetV2-style network for 32x32 inputs: 3x3 conv 16 (stride 2),
    9 inverted residual blocks (t, c, n, s) = (1, 16, 1, 1), (4, 24, 2, 2),
    (4, 32, 3, 2), (4, 64, 2, 2), (4, 96, 1, 1), 1x1 conv 128, global
    average pool, FC 10."""

    CFG = [(1, 16, 1, 1), (4, 24, 2, 2), (4, 32, 3, 2), (4, 64, 2, 2), (4, 96, 1, 1)]

    def __init__(self, classes=10):
        super().__init__()
        self.stem = conv_bn(3, 16, 3, 2)
        blocks, c = [], 16
        for t, cout, n, s in self.CFG:
            for k in range(n):
                blocks.append(InvertedResidual(c, cout, s if k == 0 else 1, t))
                c = cout
        self.blocks = nn.Sequential(*blocks)
        self.head = conv_bn(c, 128, 1)
        self.fc = nn.Linear(128, classes)

    def forward(self, x):
        x = self.blocks(F.relu6(self.stem(x)))
        x = F.relu6(self.head(x))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


class TransformerTagger(nn.Module):
    """`blocks` EncoderBlocks (post-norm) on a [S, D] sequence and a linear
    head per token (a token classifier: the loss is over the S tokens)."""

    def __init__(self, d=32, heads=2, ff=64, blocks=4, classes=10):
        super().__init__()
        self.blocks = nn.Sequential(*[EncoderBlock(d, heads, ff) for _ in range(blocks)])
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        return self.head(self.blocks(x))


def batch_stats_only(model):
    """Batch norm with batch statistics only: drop the running mean/var (the
    training step then neither reads nor updates them)."""
    for mod in model.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm):
            mod.track_running_stats = False
            mod.running_mean = mod.running_var = mod.num_batches_tracked = None
    return model


def train_step_fn(model, lr=0.01, fused_update=False):
    """fn(x, y, *params) -> (loss, *updated params): one SGD step with a
    soft-target cross-entropy loss; the joint graph comes from functorch.

    The update is p - lr * g (aten mul + sub), or with fused_update
    p.add(g, alpha=-lr) as torch.optim.SGD writes it (one aten add: one
    generic per parameter; the same f32 values)."""
    names = [n for n, _ in model.named_parameters()]

    def loss_fn(ps, x, y):
        out = functional_call(model, dict(zip(names, ps)), (x,))
        return -(y * F.log_softmax(out, 1)).sum() / x.shape[0]

    def step(x, y, *ps):
        gs, loss = grad_and_value(loss_fn)(ps, x, y)
        if fused_update:
            return (loss,) + tuple(torch.add(p, g, alpha=-lr) for p, g in zip(ps, gs))
        return (loss,) + tuple(p - lr * g for p, g in zip(ps, gs))
    return step, names


# ===----------------------------------------------------------------------===#
# Specs
# ===----------------------------------------------------------------------===#


class Spec:
    def __init__(self, make, input_shapes, source, train=False, fused_update=False):
        self.make = make
        self.input_shapes = input_shapes
        self.source = source
        self.train = train
        self.fused_update = fused_update

    def model(self):
        torch.manual_seed(0)
        m = self.make()
        _randomize_bn(m)
        return m

    def build(self):
        """(fn, arg names, example inputs, source) for export.trace/to_mlir."""
        import export
        m = self.model()
        gen = torch.Generator().manual_seed(1)
        inputs = [torch.randn(*s, generator=gen) for s in self.input_shapes]
        if self.train:
            # Training mode: batch norm normalises with the batch statistics;
            # the running statistics are dropped (see batch_stats_only).
            batch_stats_only(m).train()
            fn, names = train_step_fn(m, fused_update=self.fused_update)
            params = [p.detach() for p in m.parameters()]
            arg_names = ["input", "target"] + names
            return fn, arg_names, inputs + params, self.source
        fn, names, params = export.inference_fn(m)
        in_names = ["input"] if len(inputs) == 1 else [f"input{i}" for i in range(len(inputs))]
        return fn, in_names + names, inputs + params, self.source


def _randomize_bn(m):
    """Non-trivial running statistics so batch norm is not the identity."""
    g = torch.Generator().manual_seed(2)
    for mod in m.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm):
            mod.running_mean.copy_(torch.randn(mod.running_mean.shape, generator=g) * 0.1)
            mod.running_var.copy_(torch.rand(mod.running_var.shape, generator=g) + 0.5)
            mod.weight.data.copy_(torch.rand(mod.weight.shape, generator=g) + 0.5)
            mod.bias.data.copy_(torch.randn(mod.bias.shape, generator=g) * 0.1)


TV = torchvision.models

SPECS = {
    "resnet18": Spec(lambda: TV.resnet18(), [(1, 3, 64, 64)], "torchvision.models.resnet18"),
    "mobilenet_v2": Spec(lambda: TV.mobilenet_v2(), [(1, 3, 64, 64)],
                         "torchvision.models.mobilenet_v2"),
    "resnet8_tiny": Spec(ResNet8, [(1, 3, 32, 32)], "MLPerf Tiny ResNet-8 (networks.ResNet8)"),
    "dscnn_kws": Spec(DSCNN, [(1, 1, 49, 10)], "MLPerf Tiny DS-CNN (networks.DSCNN)"),
    "mobilenet_v1_025": Spec(MobileNetV1, [(1, 3, 96, 96)],
                             "MLPerf Tiny MobileNetV1 0.25 (networks.MobileNetV1)"),
    "fc_autoencoder": Spec(FCAutoencoder, [(1, 640)],
                           "MLPerf Tiny FC autoencoder (networks.FCAutoencoder)"),
    "hrnet_small": Spec(HRNetSmall, [(1, 3, 64, 64)], "networks.HRNetSmall"),
    "train_step_cnn": Spec(SmallCNN, [(4, 3, 32, 32), (4, 10)],
                           "SGD step of networks.SmallCNN (functorch grad_and_value)",
                           train=True),
    "squeezenet1_0": Spec(lambda: TV.squeezenet1_0(), [(1, 3, 64, 64)],
                          "torchvision.models.squeezenet1_0"),
    "googlenet": Spec(lambda: TV.googlenet(aux_logits=False, init_weights=False),
                      [(1, 3, 64, 64)], "torchvision.models.googlenet(aux_logits=False)"),
    "densenet121": Spec(lambda: TV.densenet121(), [(1, 3, 64, 64)],
                        "torchvision.models.densenet121"),
    "deeplabv3_mobilenet_v3_large": Spec(
        lambda: TV.segmentation.deeplabv3_mobilenet_v3_large(
            weights=None, weights_backbone=None, aux_loss=False),
        [(1, 3, 96, 96)], "torchvision.models.segmentation.deeplabv3_mobilenet_v3_large"),
    "randwire_small": Spec(RandWireSmall, [(1, 3, 64, 64)], "networks.RandWireSmall (seed 1)"),
    "transformer_encoder": Spec(EncoderBlock, [(64, 128)], "networks.EncoderBlock"),
    "unet_small": Spec(UNetSmall, [(1, 3, 64, 64)], "networks.UNetSmall"),
    "two_tower": Spec(TwoTower, [(1, 3, 64, 64), (1, 1, 64, 64)], "networks.TwoTower"),
    "train_step_resnet8": Spec(ResNet8, [(2, 3, 32, 32), (2, 10)],
                               "SGD step of MLPerf Tiny ResNet-8 (networks.ResNet8, BN "
                               "batch statistics)", train=True, fused_update=True),
    "train_step_resnet20": Spec(ResNet20, [(2, 3, 32, 32), (2, 10)],
                                "SGD step of CIFAR ResNet-20 (networks.ResNet20, BN "
                                "batch statistics)", train=True, fused_update=True),
    "train_step_mobilenet": Spec(MobileNetV2Small, [(2, 3, 32, 32), (2, 10)],
                                 "SGD step of networks.MobileNetV2Small (BN batch "
                                 "statistics)", train=True, fused_update=True),
    "train_step_transformer": Spec(TransformerTagger, [(16, 32), (16, 10)],
                                   "SGD step of networks.TransformerTagger (4 "
                                   "EncoderBlocks d=32, 2 heads, FF 64)", train=True,
                                   fused_update=True),
    "train_step_unet": Spec(lambda: UNetSmall(c=4), [(2, 3, 32, 32), (2, 2, 32, 32)],
                            "SGD step of networks.UNetSmall(c=4) (BN batch statistics)",
                            train=True, fused_update=True),
}

# torchvision inference networks at their native input size (1x3x224x224),
# the sizes deployments use: exported by `generate.sh --224` into
# bench/models/224/, kept out of the default corpus (and of ctest: the
# runs take minutes at this size).
SPECS_224 = {
    f"{name}_224": Spec(build, [(1, 3, 224, 224)], f"torchvision.models.{name} (224x224)")
    for name, build in [
        ("mobilenet_v2", lambda: TV.mobilenet_v2()),
        ("mobilenet_v3_large", lambda: TV.mobilenet_v3_large()),
        ("efficientnet_b0", lambda: TV.efficientnet_b0()),
        ("resnet18", lambda: TV.resnet18()),
        ("resnet50", lambda: TV.resnet50()),
        ("googlenet", lambda: TV.googlenet(aux_logits=False, init_weights=False)),
        ("mnasnet1_0", lambda: TV.mnasnet1_0()),
        ("shufflenet_v2_x1_0", lambda: TV.shufflenet_v2_x1_0()),
        ("squeezenet1_0", lambda: TV.squeezenet1_0()),
    ]
}
