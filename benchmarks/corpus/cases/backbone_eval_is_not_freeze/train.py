import torch

from lightningmodel import PL3DVNet


def fit(model, batches, epochs=3):
    optimizer = model.configure_optimizers()
    for epoch in range(epochs):
        model.on_train_epoch_start()
        for batch in batches:
            loss = model.training_step(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: depth loss {loss.item():.4f}")


def main():
    torch.manual_seed(0)
    model = PL3DVNet()
    batches = [(torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16), 0.5 + 3.5 * torch.rand(2, 8, 8))
               for _ in range(4)]
    backbone_before = model.mvsnet.feat_extractor.layers[0].weight.detach().clone()
    fit(model, batches)
    changed = not torch.equal(backbone_before, model.mvsnet.feat_extractor.layers[0].weight)
    print(f"frozen MnasNet backbone weights changed: {changed}")


if __name__ == "__main__":
    main()
