#!/usr/bin/python3
"""export_dle_zoo.py - exports the DeepLearningExamples (DLE) classification
networks that torchvision lacks, graph only, to tests/models/dle/.

Purpose: give the DLE inference set (tools/accuracy_dle_infer.py: the
vendor's PyTorch inference rows of ../shared/data/calibration/
dle-v100-t4.yaml) graphs of the networks those rows ran, built as the
calibration file's `architectures` section describes them (from DLE's
image_classification/models/ at commit 729963d):

  resnext101_32x4d     torchvision's ResNet with Bottleneck blocks, layers
                       3-4-23-3, groups 32, width per group 4 (the 3x3
                       convolution grouped), 224 px
  se_resnext101_32x4d  the same with squeeze-and-excitation on each
                       bottleneck's output before the residual add: mean
                       over H x W, Linear to C/16, ReLU, Linear to C,
                       Sigmoid, multiply (DLE common.py's
                       SqueezeAndExcitation), 224 px
  efficientnet_widese_b0 / _b4
                       torchvision's EfficientNet-B0 / B4 (224 / 380 px)
                       with DLE's WideSE block: the squeeze width is 0.25
                       x the expanded (depthwise) width instead of 0.25 x
                       the block's input width (MBConvBlock squeeze_hidden)

EfficientNet-B0/B4 and ResNet-50 are torchvision's own (tests/models/
torchvision/).  Each export goes through tools/export_torchvision_zoo.py's
export_model (random weights, eval mode, constant folding, opset 14,
dynamic batch, weights deleted): the same form as every zoo graph.

    /usr/bin/python3 tools/export_dle_zoo.py [--out DIR] [--only a,b]
"""
import argparse
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export_torchvision_zoo as zoo  # noqa: E402

DEFAULT_OUT = os.path.join(zoo.ROOT, "tests", "models", "dle")


def resnext(se):
    import torch
    from torch import nn
    from torchvision.models import resnet

    class SEBottleneck(resnet.Bottleneck):
        def __init__(self, inplanes, planes, *a, **k):
            super().__init__(inplanes, planes, *a, **k)
            c = planes * self.expansion
            self.se_squeeze = nn.Linear(c, c // 16)
            self.se_expand = nn.Linear(c // 16, c)

        def forward(self, x):
            identity = x if self.downsample is None else self.downsample(x)
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
            s = torch.sigmoid(self.se_expand(self.relu(self.se_squeeze(torch.mean(out, [2, 3])))))
            out = out * s.unsqueeze(2).unsqueeze(3)
            return self.relu(out + identity)

    block = SEBottleneck if se else resnet.Bottleneck
    return resnet.ResNet(block, [3, 4, 23, 3], groups=32, width_per_group=4), 224


def widese(variant):
    from torchvision.models import efficientnet as ef
    from torchvision.ops.misc import SqueezeExcitation

    def se_layer(expanded, squeeze, activation):
        # DLE's WideSE: squeeze from the expanded width (torchvision passes input // 4)
        return SqueezeExcitation(expanded, max(1, int(expanded * 0.25)), activation=activation)

    width, depth, crop, dropout = {"b0": (1.0, 1.0, 224, 0.2), "b4": (1.4, 1.8, 380, 0.4)}[variant]
    settings, last = ef._efficientnet_conf("efficientnet_" + variant, width_mult=width, depth_mult=depth)
    orig = ef.MBConv.__init__
    ef.MBConv.__init__ = lambda self, cnf, sd, norm, se=None: orig(self, cnf, sd, norm, se_layer)
    try:
        return ef.EfficientNet(settings, dropout, last_channel=last), crop
    finally:
        ef.MBConv.__init__ = orig


BUILDERS = {
    "resnext101_32x4d": functools.partial(resnext, False),
    "se_resnext101_32x4d": functools.partial(resnext, True),
    "efficientnet_widese_b0": functools.partial(widese, "b0"),
    "efficientnet_widese_b4": functools.partial(widese, "b4"),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    import torch
    torch.set_num_threads(1)
    zoo.register_missing_symbolics()
    os.makedirs(a.out, exist_ok=True)
    for name in [n for n in BUILDERS if not a.only or n in a.only.split(",")]:
        torch.manual_seed(0)
        model, crop = BUILDERS[name]()
        zoo.export_model(model, name, crop, a.out, "random (DLE architecture, tools/export_dle_zoo.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
