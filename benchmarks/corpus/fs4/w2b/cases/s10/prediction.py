import torch


def validate_on_data(model, data, batch_size):
    model.eval()
    total_loss, n_batches = 0.0, 0
    with torch.no_grad():
        for start in range(0, data["src"].size(0), batch_size):
            src = data["src"][start:start + batch_size]
            trg = data["trg"][start:start + batch_size]
            total_loss += model.get_loss_for_batch(src, trg).item()
            n_batches += 1
    return total_loss / max(n_batches, 1)
