import numpy as np
import torch

from model import RNN

configs = {
    "img_width": 12,
    "img_channel": 1,
    "patch_size": 1,
    "filter_size": 3,
    "stride": 1,
    "input_length": 4,
    "total_length": 8,
    "num_hidden": "8,8",
    "decouple_beta": 0.1,
    "lr": 1e-3,
    "batch_size": 4,
    "max_iterations": 4,
    "seed": 0,
}


class Model:
    def __init__(self, configs):
        self.configs = configs
        num_hidden = [int(x) for x in configs["num_hidden"].split(",")]
        self.network = RNN(len(num_hidden), num_hidden, configs)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=configs["lr"])

    def train(self, frames, mask):
        self.network.train()
        self.optimizer.zero_grad()
        next_frames, loss = self.network(frames, mask)
        loss.backward()
        self.optimizer.step()
        return loss.item()


def synthetic_batch(configs, rng):
    b, t, w = configs["batch_size"], configs["total_length"], configs["img_width"]
    frames = torch.from_numpy(rng.random((b, t, 1, w, w)).astype(np.float32))
    frames = frames.cumsum(1) / t
    steps = t - configs["input_length"] - 1
    mask = torch.from_numpy((rng.random((b, steps, 1, 1, 1)) < 0.5).astype(np.float32))
    return frames, mask.expand(b, steps, 1, w, w)


def main():
    torch.manual_seed(configs["seed"])
    rng = np.random.default_rng(configs["seed"])
    model = Model(configs)
    for itr in range(1, configs["max_iterations"] + 1):
        frames, mask = synthetic_batch(configs, rng)
        cost = model.train(frames, mask)
        if itr % 2 == 0:
            print("itr %d training loss: %.5f" % (itr, cost))
    return model


if __name__ == "__main__":
    model = main()
