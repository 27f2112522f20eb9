import argparse

import torch
import torch.nn.functional as F

from hlmobilenet import MattingNet


def get_arguments():
    parser = argparse.ArgumentParser(description="IndexNet-style matting")
    parser.add_argument("--backbone", type=str, default="resnet10t")
    parser.add_argument("--freeze-bn", type=bool, default=True)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--crop-size", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--num-epochs", type=int, default=2)
    parser.add_argument("--iters-per-epoch", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    return parser.parse_args()


def alpha_prediction_loss(pred, alpha, trimap):
    weight = (trimap == 128).float()
    diff = torch.sqrt((pred - alpha) ** 2 + 1e-12)
    return (diff * weight).sum() / (weight.sum() + 1.0)


def sample_batch(args, generator):
    b, s = args.batch_size, args.crop_size
    image = torch.rand(b, 3, s, s, generator=generator) * 2.0 + 0.5
    alpha = torch.rand(b, 1, s, s, generator=generator)
    trimap = torch.full((b, 1, s, s), 128.0)
    trimap[alpha > 0.9] = 255.0
    trimap[alpha < 0.1] = 0.0
    inputs = torch.cat([image, trimap / 255.0], dim=1)
    return inputs, alpha, trimap


def train(net, optimizer, args, epoch, generator):
    net.train()
    running = 0.0
    for i in range(args.iters_per_epoch):
        inputs, alpha, trimap = sample_batch(args, generator)
        pred = net(inputs)
        loss = alpha_prediction_loss(pred, alpha, trimap)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    print(f"epoch {epoch}: loss {running / args.iters_per_epoch:.4f}")


def main():
    args = get_arguments()
    torch.manual_seed(args.seed)
    net = MattingNet(args.backbone, freeze_bn=args.freeze_bn)
    params = [p for p in net.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=args.learning_rate)
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.num_epochs):
        train(net, optimizer, args, epoch, generator)
    return net


if __name__ == "__main__":
    net = main()
