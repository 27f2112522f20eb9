import torch
import torch.nn.functional as F

from model import VQVAE

torch.manual_seed(3)
num_training_updates = 5
batch_size = 8
data_variance = 0.5

model = VQVAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, amsgrad=False)

model.train()
train_res_recon_error = []
train_res_perplexity = []
for i in range(num_training_updates):
    data = torch.randn(batch_size, 3, 16, 16) * data_variance ** 0.5
    optimizer.zero_grad()

    vq_loss, data_recon, perplexity = model(data)
    recon_error = F.mse_loss(data_recon, data) / data_variance
    loss = recon_error + vq_loss
    loss.backward()
    optimizer.step()

    train_res_recon_error.append(recon_error.item())
    train_res_perplexity.append(perplexity.item())
    print(f"{i + 1} iterations recon_error {recon_error.item():.4f} perplexity {perplexity.item():.3f}")
