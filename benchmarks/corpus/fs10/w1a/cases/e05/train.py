import torch
import torch.nn.functional as F

from model import VisionLanguageModel

CFG = {
    "vocab": 100,
    "hidden": 32,
    "num_layers": 4,
    "patch_dim": 48,
    "deepstack_layers": [0, 1, 2],
    "image_token_id": 99,
    "num_image_tokens": 4,
    "image_every": 3,
    "seq_len": 16,
    "batch_size": 2,
    "steps": 6,
    "lr": 1e-3,
}


def make_batch(step, cfg):
    bs, n_img = cfg["batch_size"], cfg["num_image_tokens"]
    input_ids = torch.randint(0, cfg["image_token_id"], (bs, cfg["seq_len"]))
    batch = {"input_ids": input_ids}
    if step % cfg["image_every"] == cfg["image_every"] - 1:
        input_ids[:, 1:1 + n_img] = cfg["image_token_id"]
        batch["patches"] = torch.randn(bs, n_img, cfg["patch_dim"])
    return batch


def main():
    torch.manual_seed(0)
    model = VisionLanguageModel(CFG)
    optimizer = torch.optim.AdamW(model.parameters(), lr=CFG["lr"])
    for step in range(CFG["steps"]):
        batch = make_batch(step, CFG)
        logits = model(**batch)
        labels = batch["input_ids"][:, 1:]
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, CFG["vocab"]), labels.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} images={'patches' in batch}")


if __name__ == "__main__":
    main()
