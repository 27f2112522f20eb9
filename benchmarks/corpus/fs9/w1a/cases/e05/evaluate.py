import compat  # noqa: F401
import argparse
import time

import timm
import torch

from fuse import fuse_model


def parse_args():
    p = argparse.ArgumentParser(description="Evaluate a segmentation-pretrained backbone")
    p.add_argument("--model", default="resnet18")
    p.add_argument("--num-classes", type=int, default=19)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--img-size", type=int, default=64)
    p.add_argument("--fuse-bn", dest="fuse_bn", action="store_true")
    p.add_argument("--no-fuse-bn", dest="fuse_bn", action="store_false")
    p.set_defaults(fuse_bn=True)
    return p.parse_args()


def calibrate_bn(model, batches):
    model.train()
    with torch.no_grad():
        for x in batches:
            model(x)


def benchmark(model, x, repeats=3):
    with torch.no_grad():
        model(x)
        t0 = time.perf_counter()
        for _ in range(repeats):
            out = model(x)
        return out, (time.perf_counter() - t0) / repeats


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = timm.create_model(args.model, pretrained=False, num_classes=args.num_classes)
    batches = [torch.randn(args.batch_size, 3, args.img_size, args.img_size) for _ in range(3)]
    calibrate_bn(model, batches)
    model.eval()

    x = batches[0]
    ref, t_ref = benchmark(model, x)
    if args.fuse_bn:
        model = fuse_model(model)
    out, t_fused = benchmark(model, x)
    print(f"max abs diff {(out - ref).abs().max().item():.2e}")
    print(f"latency {t_ref * 1e3:.1f} ms -> {t_fused * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
