import torch

from layers import add_adapters, convert_to_int8
from model import TinyGPTJ

CONFIG = {"seed": 0, "adapter_dim": 8, "lr": 1e-4, "steps": 3, "batch": 2, "seq_len": 32}


def main():
    torch.manual_seed(CONFIG["seed"])
    model = convert_to_int8(TinyGPTJ())
    if CONFIG["adapter_dim"] > 0:
        add_adapters(model, CONFIG["adapter_dim"])
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=CONFIG["lr"], weight_decay=0.01)
    print(f"trainable tensors: {len(params)}")

    for step in range(CONFIG["steps"]):
        batch = torch.randint(0, 256, (CONFIG["batch"], CONFIG["seq_len"]))
        _, loss = model(batch, labels=batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
