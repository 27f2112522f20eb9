import torch

from single_stage import SingleStageDetector

torch.manual_seed(0)
NUM_PRIORS = 4 * (16 * 16 + 8 * 8)

model = SingleStageDetector()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
data_loader = [(torch.randn(2, 3, 32, 32), torch.randint(0, 3, (2, NUM_PRIORS)), torch.randn(2, NUM_PRIORS, 4))
               for _ in range(3)]


def parse_losses(losses):
    loss = sum(value for key, value in losses.items() if "loss" in key)
    return loss, {key: value.item() for key, value in losses.items()}


for i, (img, gt_labels, gt_bboxes) in enumerate(data_loader):
    losses = model.forward_train(img, gt_labels, gt_bboxes)
    loss, log_vars = parse_losses(losses)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {i}: " + ", ".join(f"{k}={v:.4f}" for k, v in log_vars.items()))
