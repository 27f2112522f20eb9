import argparse

import torch

from base_gan import BaseGAN

DEFAULT_CONFIG = {
    "dimLatentVector": 32,
    "depth": 32,
    "learningRate": 1e-3,
    "lambdaGP": 10.0,
    "epsilonD": 0.001,
    "GDPP": False,
    "miniBatchSize": 8,
    "maxIterAtScale": 4,
}


def parse_config():
    parser = argparse.ArgumentParser(description="Training script")
    parser.add_argument("model_name", nargs="?", default="PGAN")
    parser.add_argument("--GDPP", type=bool, default=True,
                        help="Use GDPP loss (Generative Determinantal Point Processes)")
    parser.add_argument("--restart", action="store_true")
    args = parser.parse_args()
    config = dict(DEFAULT_CONFIG)
    config["GDPP"] = args.GDPP
    return config


def main():
    config = parse_config()
    torch.manual_seed(0)
    model = BaseGAN(config)
    for step in range(config["maxIterAtScale"]):
        real = torch.randn(config["miniBatchSize"], 3, 16, 16)
        losses = model.optimizeParameters(real)
        print(step, {k: round(v, 4) for k, v in losses.items()})


if __name__ == "__main__":
    main()
