import torch
import torch.nn.functional as F
from torch import nn


def build_grid(resolution):
    ranges = [torch.linspace(0.0, 1.0, steps=res) for res in resolution]
    grid = torch.stack(torch.meshgrid(*ranges, indexing="ij"), dim=-1)
    grid = grid.unsqueeze(0)
    return torch.cat([grid, 1.0 - grid], dim=-1)


class SoftPositionEmbed(nn.Module):
    def __init__(self, num_channels, hidden_size, resolution):
        super().__init__()
        self.dense = nn.Linear(num_channels, hidden_size)
        self.register_buffer("grid", build_grid(resolution))

    def forward(self, inputs):
        emb_proj = self.dense(self.grid).permute(0, 3, 1, 2)
        return inputs + emb_proj


class SlotAttention(nn.Module):
    def __init__(self, in_features, num_iterations, num_slots, slot_size, mlp_hidden_size, epsilon=1e-8):
        super().__init__()
        self.in_features = in_features
        self.num_iterations = num_iterations
        self.num_slots = num_slots
        self.slot_size = slot_size
        self.mlp_hidden_size = mlp_hidden_size
        self.epsilon = epsilon

        self.norm_inputs = nn.LayerNorm(self.in_features)
        self.norm_slots = nn.LayerNorm(self.slot_size)
        self.norm_mlp = nn.LayerNorm(self.slot_size)

        self.project_q = nn.Linear(self.slot_size, self.slot_size, bias=False)
        self.project_k = nn.Linear(self.in_features, self.slot_size, bias=False)
        self.project_v = nn.Linear(self.in_features, self.slot_size, bias=False)

        self.gru = nn.GRUCell(self.slot_size, self.slot_size)
        self.mlp = nn.Sequential(
            nn.Linear(self.slot_size, self.mlp_hidden_size),
            nn.ReLU(),
            nn.Linear(self.mlp_hidden_size, self.slot_size),
        )

        self.register_buffer(
            "slots_mu",
            nn.init.xavier_uniform_(torch.zeros((1, 1, self.slot_size)), gain=nn.init.calculate_gain("linear")),
        )
        self.register_buffer(
            "slots_log_sigma",
            nn.init.xavier_uniform_(torch.zeros((1, 1, self.slot_size)), gain=nn.init.calculate_gain("linear")),
        )

    def forward(self, inputs):
        batch_size, num_inputs, inputs_size = inputs.shape
        inputs = self.norm_inputs(inputs)
        k = self.project_k(inputs)
        v = self.project_v(inputs)

        slots_init = torch.randn((batch_size, self.num_slots, self.slot_size))
        slots_init = slots_init.type_as(inputs)
        slots = self.slots_mu + self.slots_log_sigma.exp() * slots_init

        for _ in range(self.num_iterations):
            slots_prev = slots
            slots = self.norm_slots(slots)
            q = self.project_q(slots)
            attn_norm_factor = self.slot_size ** -0.5
            attn_logits = attn_norm_factor * torch.matmul(k, q.transpose(2, 1))
            attn = F.softmax(attn_logits, dim=-1)
            attn = attn + self.epsilon
            attn = attn / torch.sum(attn, dim=1, keepdim=True)
            updates = torch.matmul(attn.transpose(1, 2), v)
            slots = self.gru(
                updates.view(batch_size * self.num_slots, self.slot_size),
                slots_prev.view(batch_size * self.num_slots, self.slot_size),
            )
            slots = slots.view(batch_size, self.num_slots, self.slot_size)
            slots = slots + self.mlp(self.norm_mlp(slots))
        return slots


class SlotAttentionModel(nn.Module):
    def __init__(self, resolution, num_slots, num_iterations, in_channels=3, hidden_dims=(32, 32),
                 decoder_resolution=(4, 4), slot_size=32, mlp_hidden_size=64):
        super().__init__()
        self.resolution = resolution
        self.num_slots = num_slots
        self.in_channels = in_channels
        self.slot_size = slot_size
        self.decoder_resolution = decoder_resolution
        out_features = hidden_dims[-1]

        modules, channels = [], in_channels
        for h_dim in hidden_dims:
            modules.append(nn.Sequential(nn.Conv2d(channels, h_dim, 5, padding=2), nn.LeakyReLU()))
            channels = h_dim
        self.encoder = nn.Sequential(*modules)
        self.encoder_pos_embedding = SoftPositionEmbed(4, out_features, resolution)
        self.encoder_out_layer = nn.Sequential(
            nn.Linear(out_features, out_features), nn.LeakyReLU(), nn.Linear(out_features, out_features),
        )

        self.decoder_pos_embedding = SoftPositionEmbed(4, slot_size, decoder_resolution)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(slot_size, 32, 5, stride=2, padding=2, output_padding=1), nn.LeakyReLU(),
            nn.ConvTranspose2d(32, 32, 5, stride=2, padding=2, output_padding=1), nn.LeakyReLU(),
            nn.ConvTranspose2d(32, in_channels + 1, 3, stride=1, padding=1),
        )
        self.slot_attention = SlotAttention(
            in_features=out_features, num_iterations=num_iterations, num_slots=num_slots,
            slot_size=slot_size, mlp_hidden_size=mlp_hidden_size,
        )

    def forward(self, x):
        batch_size, num_channels, height, width = x.shape
        encoder_out = self.encoder(x)
        encoder_out = self.encoder_pos_embedding(encoder_out)
        encoder_out = torch.flatten(encoder_out, start_dim=2, end_dim=3).permute(0, 2, 1)
        encoder_out = self.encoder_out_layer(encoder_out)

        slots = self.slot_attention(encoder_out)
        batch_size, num_slots, slot_size = slots.shape
        slots = slots.view(batch_size * num_slots, slot_size, 1, 1)
        decoder_in = slots.repeat(1, 1, self.decoder_resolution[0], self.decoder_resolution[1])

        out = self.decoder_pos_embedding(decoder_in)
        out = self.decoder(out)
        out = out.view(batch_size, num_slots, num_channels + 1, height, width)
        recons = out[:, :, :num_channels, :, :]
        masks = torch.softmax(out[:, :, -1:, :, :], dim=1)
        recon_combined = torch.sum(recons * masks, dim=1)
        return recon_combined, recons, masks, slots

    def loss_function(self, input):
        recon_combined, recons, masks, slots = self.forward(input)
        loss = F.mse_loss(recon_combined, input)
        return {"loss": loss}
