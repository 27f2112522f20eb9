import torch

from model import SlotAttentionModel

PARAMS = {
    "resolution": (16, 16),
    "num_slots": 4,
    "num_iterations": 3,
    "lr": 4e-4,
    "warmup_steps_pct": 0.02,
    "decay_steps_pct": 0.2,
    "batch_size": 4,
    "max_steps": 3,
    "seed": 3,
}


def synthetic_scenes(batch_size, resolution, generator):
    h, w = resolution
    imgs = torch.full((batch_size, 3, h, w), -1.0)
    for b in range(batch_size):
        for _ in range(3):
            cy, cx = torch.randint(2, h - 2, (2,), generator=generator).tolist()
            r = int(torch.randint(2, 4, (1,), generator=generator))
            color = torch.rand(3, 1, 1, generator=generator) * 2 - 1
            imgs[b, :, max(cy - r, 0):cy + r, max(cx - r, 0):cx + r] = color
    return imgs


class SlotAttentionMethod:
    def __init__(self, model, params):
        self.model = model
        self.params = params
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=params["lr"], weight_decay=0.0)
        total = params["max_steps"]
        warmup = max(int(params["warmup_steps_pct"] * total), 1)

        def warm_and_decay_lr_scheduler(step):
            factor = min(1.0, (step + 1) / warmup)
            return factor * 0.5 ** (step / (params["decay_steps_pct"] * total))

        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, warm_and_decay_lr_scheduler)

    def training_step(self, batch):
        self.model.train()
        loss_dict = self.model.loss_function(batch)
        self.optimizer.zero_grad()
        loss_dict["loss"].backward()
        self.optimizer.step()
        self.scheduler.step()
        return {k: v.item() for k, v in loss_dict.items()}


def main():
    torch.manual_seed(PARAMS["seed"])
    generator = torch.Generator().manual_seed(PARAMS["seed"])
    model = SlotAttentionModel(
        resolution=PARAMS["resolution"],
        num_slots=PARAMS["num_slots"],
        num_iterations=PARAMS["num_iterations"],
    )
    method = SlotAttentionMethod(model, PARAMS)
    for step in range(PARAMS["max_steps"]):
        batch = synthetic_scenes(PARAMS["batch_size"], PARAMS["resolution"], generator)
        logs = method.training_step(batch)
        print("step %d loss %.4f" % (step, logs["loss"]))
    return model


if __name__ == "__main__":
    model = main()
