import torch


def train(model, batches, lr=1e-4, epochs=1):
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr)
    model.train()
    for epoch in range(epochs):
        for step, batch in enumerate(batches):
            out = model(**batch)
            optimizer.zero_grad()
            out.loss.backward()
            optimizer.step()
            kind = "image-text" if batch.get("media") is not None else "text-only"
            print(f"epoch {epoch} step {step} ({kind}): loss {out.loss.item():.4f}")
