from itertools import cycle

import torch
from torch.nn.utils import clip_grad_norm_
from torch.optim.lr_scheduler import StepLR

from transcriber import OnsetsAndFrames

config = dict(
    iterations=3,
    batch_size=4,
    sequence_frames=24,
    n_mels=32,
    n_keys=16,
    model_complexity=1,
    learning_rate=0.0006,
    learning_rate_decay_steps=10000,
    learning_rate_decay_rate=0.98,
    clip_gradient_norm=3,
)


def synthetic_dataset(n, cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    items = []
    for _ in range(n):
        frame = (torch.rand(cfg["batch_size"], cfg["sequence_frames"], cfg["n_keys"], generator=g) > 0.8).float()
        onset = frame * (torch.rand(frame.shape, generator=g) > 0.5).float()
        offset = frame * (torch.rand(frame.shape, generator=g) > 0.5).float()
        velocity = torch.rand(frame.shape, generator=g) * 12.0
        mel = torch.randn(cfg["batch_size"], cfg["sequence_frames"], cfg["n_mels"], generator=g)
        items.append(dict(mel=mel, onset=onset, offset=offset, frame=frame, velocity=velocity))
    return items


def train(iterations, learning_rate, learning_rate_decay_steps, learning_rate_decay_rate,
          clip_gradient_norm, model_complexity, **data_cfg):
    torch.manual_seed(0)
    loader = synthetic_dataset(4, data_cfg)
    model = OnsetsAndFrames(data_cfg["n_mels"], data_cfg["n_keys"], model_complexity)
    optimizer = torch.optim.Adam(model.parameters(), learning_rate)
    scheduler = StepLR(optimizer, step_size=learning_rate_decay_steps, gamma=learning_rate_decay_rate)

    model.train()
    for i, batch in zip(range(1, iterations + 1), cycle(loader)):
        predictions, losses = model.run_on_batch(batch)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()

        if clip_gradient_norm:
            clip_grad_norm_(model.parameters(), clip_gradient_norm)

        print(f"iter {i} " + " ".join(f"{k}={v.item():.4f}" for k, v in losses.items()))
    return model


if __name__ == "__main__":
    model = train(**config)
