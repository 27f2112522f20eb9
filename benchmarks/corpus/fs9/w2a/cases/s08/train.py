import torch
import torch.nn.functional as F

from engine import Engine
from model import MLPRegressor

accumulation_steps = 4
log_interval = 8


def prepare_batch(batch):
    x, y = batch
    return x.float(), y.float()


def create_trainer(model, optimizer, loss_fn):
    def update_fn(engine, batch):
        model.train()

        if engine.state.iteration % accumulation_steps == 0:
            optimizer.zero_grad()

        x, y = prepare_batch(batch)
        y_pred = model(x)
        loss = loss_fn(y_pred, y) / accumulation_steps
        loss.backward()

        if engine.state.iteration % accumulation_steps == 0:
            optimizer.step()

        return loss.item()

    return Engine(update_fn)


torch.manual_seed(0)
w_true = torch.randn(10)
micro_batches = []
for _ in range(16):
    x = torch.randn(8, 10)
    micro_batches.append((x, x @ w_true + 0.1 * torch.randn(8)))

model = MLPRegressor()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
trainer = create_trainer(model, optimizer, F.mse_loss)


@trainer.on("iteration_completed", every=log_interval)
def log_training_loss(engine):
    print(f"Epoch[{engine.state.epoch}] Iteration[{engine.state.iteration}] Loss: {engine.state.output:.4f}")


trainer.run(micro_batches, max_epochs=3)
