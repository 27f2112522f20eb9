import torch

from depther import DepthEncoderDecoder, DPTHead, PatchViT

torch.manual_seed(0)

backbone = PatchViT()
for p in backbone.parameters():   # keep the pretrained ViT frozen, train only the DPT head
    p.requires_grad = False
backbone.eval()

model = DepthEncoderDecoder(backbone, DPTHead())
optimizer = torch.optim.AdamW(model.decode_head.parameters(), lr=1e-3)
dataset = [(torch.rand(2, 3, 32, 32), torch.rand(2, 1, 32, 32) * 10) for _ in range(3)]

for step, (img, depth_gt) in enumerate(dataset):
    loss = model.forward_train(img, depth_gt)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: l1 {loss.item():.4f}")
