import argparse

import torch

from models import Darknet


def synthetic_batch(batch_size, grid, num_anchors, num_classes, generator):
    imgs = torch.randn(batch_size, 3, grid * 4, grid * 4, generator=generator)
    obj = (torch.rand(batch_size, num_anchors, grid, grid, generator=generator) < 0.15).float()
    box = torch.rand(batch_size, num_anchors, grid, grid, 4, generator=generator)
    cls = torch.randint(0, num_classes, (batch_size, num_anchors, grid, grid), generator=generator)
    return imgs, (obj, box, cls)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--batches_per_epoch", type=int, default=6)
    parser.add_argument("--gradient_accumulations", type=int, default=1, help="number of gradient accums before step")
    parser.add_argument("--img_grid", type=int, default=8)
    parser.add_argument("--num_classes", type=int, default=4)
    opt = parser.parse_args()
    print(opt)

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = Darknet(num_classes=opt.num_classes)
    optimizer = torch.optim.Adam(model.parameters())

    dataset = [synthetic_batch(opt.batch_size, opt.img_grid, 3, opt.num_classes, gen)
               for _ in range(opt.batches_per_epoch)]

    for epoch in range(opt.epochs):
        model.train()
        epoch_loss = 0.0
        for batch_i, (imgs, targets) in enumerate(dataset):
            batches_done = len(dataset) * epoch + batch_i

            loss, outputs = model(imgs, targets)
            loss.backward()

            if batches_done % opt.gradient_accumulations:
                optimizer.step()
                optimizer.zero_grad()

            epoch_loss += loss.item()
        print(f"[Epoch {epoch}/{opt.epochs}] loss {epoch_loss / len(dataset):.4f}")
