import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F


class EagleDraftHead(nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.hidden_norm = nn.LayerNorm(hidden_size)
        self.embed_norm = nn.LayerNorm(hidden_size)
        self.fc = nn.Linear(2 * hidden_size, hidden_size, bias=False)
        self.mlp = nn.Sequential(
            nn.Linear(hidden_size, intermediate_size),
            nn.SiLU(),
            nn.Linear(intermediate_size, hidden_size),
        )
        self.out_norm = nn.LayerNorm(hidden_size)

    def forward(self, hidden_states, inputs_embeds):
        h = self.hidden_norm(hidden_states)
        e = self.embed_norm(inputs_embeds)
        x = self.fc(torch.cat([e, h], dim=-1))
        x = x + self.mlp(x)
        return self.out_norm(x)


class EagleSpeculator(nn.Module):
    def __init__(self, base_model, config):
        super().__init__()
        self.base_model = base_model
        for p in self.base_model.parameters():
            p.requires_grad_(False)
        hidden = base_model.config.hidden_size
        self.eagle_module = EagleDraftHead(hidden, base_model.config.intermediate_size)
        self.ttt_steps = config["eagle_ttt_steps"]
        self.mix_hidden_states = config["eagle_mix_hidden_states"]
        self.mix_ratio = config.get("eagle_mix_ratio", 0.5)

    def _base_forward(self, input_ids):
        with torch.no_grad():
            out = self.base_model(input_ids=input_ids, output_hidden_states=True)
        return out.hidden_states[-1], out.logits

    def _mix_mask(self, shape):
        return torch.rand(shape[:2]) < self.mix_ratio

    def forward(self, input_ids):
        base_hidden, base_logits = self._base_forward(input_ids)
        inputs_embeds = self.base_model.get_input_embeddings()(input_ids[:, 1:])
        eagle_input_hiddens = base_hidden[:, :-1].contiguous()
        target = F.softmax(base_logits[:, 1:], dim=-1)

        lm_head = self.base_model.get_output_embeddings()
        loss = 0.0
        for ttt_step in range(self.ttt_steps):
            if ttt_step > 0 and self.mix_hidden_states:
                mask = self._mix_mask(eagle_input_hiddens.shape)
                eagle_input_hiddens[mask] = eagle_out[mask]
            eagle_out = self.eagle_module(eagle_input_hiddens, inputs_embeds)
            draft_logits = lm_head(eagle_out)
            step_loss = F.kl_div(F.log_softmax(draft_logits, dim=-1), target, reduction="batchmean")
            loss = loss + step_loss / self.ttt_steps
        return loss
