import torch

from model import GPT

config = dict(
    vocab_size=64, block_size=16, n_layer=4, n_head=2, n_embd=32, dropout=0.1,
    checkpoint_every=2, batch_size=8, max_iters=8, learning_rate=1e-3,
    grad_clip=1.0, eval_interval=4,
)


def get_batch(data, block_size, batch_size):
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x, y


@torch.no_grad()
def estimate_loss(model, data):
    model.eval()
    losses = torch.zeros(4)
    for k in range(4):
        X, Y = get_batch(data, config["block_size"], config["batch_size"])
        _, loss = model(X, Y)
        losses[k] = loss.item()
    model.train()
    return losses.mean()


def main():
    torch.manual_seed(1337)
    data = torch.randint(0, config["vocab_size"], (512,))
    model = GPT(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["learning_rate"], betas=(0.9, 0.95))

    for it in range(config["max_iters"]):
        if it % config["eval_interval"] == 0:
            print(f"step {it}: val loss {estimate_loss(model, data):.4f}")
        X, Y = get_batch(data, config["block_size"], config["batch_size"])
        _, loss = model(X, Y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), config["grad_clip"])
        optimizer.step()
    print(f"final train loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
