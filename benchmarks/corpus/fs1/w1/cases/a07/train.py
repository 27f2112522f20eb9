import torch

from model import InfiniLM


def segment(batch, segment_len):
    return [batch[:, i:i + segment_len] for i in range(0, batch.shape[1], segment_len)]


def train(model, optimizer, documents, epochs=1, clip=1.0):
    model.train()
    for epoch in range(epochs):
        for step, batch in enumerate(documents):
            model.reset_memory()
            optimizer.zero_grad()
            segments = segment(batch, model.segment_len)
            total = 0.0
            for seg in segments:
                _, loss = model(seg, labels=seg)
                (loss / len(segments)).backward()
                total += loss.item()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            print(f"epoch {epoch} step {step}: loss {total / len(segments):.4f}")


def main():
    torch.manual_seed(0)
    model = InfiniLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
    documents = [torch.randint(0, 100, (2, 64)) for _ in range(3)]
    train(model, optimizer, documents)


if __name__ == "__main__":
    main()
