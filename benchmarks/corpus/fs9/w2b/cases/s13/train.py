import argparse

import torch

from wakeword import Model

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=12)
parser.add_argument("--batch_n_per_class", type=str, default="48,48")
parser.add_argument("--layer_size", type=int, default=64)
args = parser.parse_args()


def mixed_batches(n_steps, n_neg, n_pos, seed=1):
    gen = torch.Generator().manual_seed(seed)
    for _ in range(n_steps):
        neg = torch.randn(n_neg, 16, 96, generator=gen)
        pos = torch.randn(n_pos, 16, 96, generator=gen) + 0.5
        x = torch.cat((neg, pos))
        y = torch.cat((torch.zeros(n_neg, dtype=torch.long), torch.ones(n_pos, dtype=torch.long)))
        yield x, y


n_neg, n_pos = (int(v) for v in args.batch_n_per_class.split(","))
oww = Model(n_classes=1, input_shape=(16, 96), layer_dim=args.layer_size)
oww.train_model(X=mixed_batches(args.steps, n_neg, n_pos), max_steps=args.steps,
                warmup_steps=2, hold_steps=2, negative_weight_schedule=[1.0, 2.0], lr=1e-3)
print("optimizer steps:", len(oww.history["loss"]), "last loss:", round(oww.history["loss"][-1], 4))
